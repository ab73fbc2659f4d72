// The report's list of invalid, collapsed and open-ended points, each with its reasons or evidence.

import { formatLoad } from '../../contract/index.ts';
import { configLabel } from '../judge/point-label.ts';
import { everyPoint, type RunAnalysis } from '../judge/run-analysis.ts';
import { ms } from './report-cells.ts';
import type { Block } from './report-doc.ts';

/** One item per point that failed its self-check, collapsed, or has a percentile interval open above. */
export function reasonsBlock(a: RunAnalysis): Block[] {
  const items: string[] = [];
  for (const p of everyPoint(a)) {
    const where = `${configLabel(p)} at ${formatLoad(p.id.load)} (${p.id.cancellation}, seed ${p.id.seed})`;
    if (p.real && !p.real.valid)
      items.push(`${where} — invalid: ${p.invalidReasons.join('; ') || 'no reason recorded'}`);
    if (p.real?.collapsed)
      items.push(`${where} — real collapsed: ${p.collapseReasons.join('; ') || 'no evidence recorded'}`);
    if (p.sim?.collapsed) items.push(`${where} — sim collapsed`);
    const open = (['p99', 'p99.9'] as const).filter((m) => p.intervals?.[m]?.highOpen);
    for (const m of open) {
      const iv = p.intervals![m]!;
      items.push(
        `${where} — ${m} interval open above: ${iv.n} successful calls cannot bound it; it reaches the sample max ${ms(iv.high)} ms`,
      );
    }
  }
  return items.length > 0 ? [{ kind: 'list', items }] : [{ kind: 'paragraph', text: 'None.' }];
}
