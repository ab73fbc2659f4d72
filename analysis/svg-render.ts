// Vega-Lite spec → vega View (renderer 'none', no browser, no canvas) → SVG string. Its own module so the
// CLI loads vega (about half a second) only when a report is drawn, through a dynamic import.

import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** Compiles and renders one spec to SVG; the view is finalized afterwards. */
export async function renderSpecToSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
