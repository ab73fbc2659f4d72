// Vega-Lite spec → vega View (renderer 'none', no browser, no canvas) → SVG string. Its own module so the
// CLI loads vega (about half a second) only when a report is drawn, through a dynamic import.

import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { addSvgTitles } from './svg-tips.ts';

/** Compiles and renders one spec to SVG, each described mark with its <title>; the view is finalized afterwards. */
export async function renderSpecToSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return addSvgTitles(await view.toSVG());
  } finally {
    view.finalize();
  }
}
