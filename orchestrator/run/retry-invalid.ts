// Which done points `run --resume DIR --retry-invalid` measures again, read from points.csv: those whose real
// row failed its self-check (one stall of a shared VM invalidated three points of a 36 000-call run at once
// here; measuring those three again takes minutes, the run an hour) — but not a point that collapsed on both
// sides: its verdict is `both-collapsed` whatever its self-check says, and a heavy collapse takes minutes alone.
import { type PointRow, rowKey } from '../../contract/index.ts';

/** Keys of the points `--retry-invalid` measures again. */
export function invalidToRetry(rows: readonly PointRow[]): Set<string> {
  const simCollapsed = new Set(rows.flatMap((r) => (r.source === 'sim' && r.collapsed ? [rowKey(r)] : [])));
  return new Set(
    rows.flatMap((r) =>
      r.source === 'real' && !r.valid && !(r.collapsed && simCollapsed.has(rowKey(r))) ? [rowKey(r)] : [],
    ),
  );
}
