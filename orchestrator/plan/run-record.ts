// The run's written record: manifest.json (each point's state), points.csv (sim and real rows in plan
// order) and run.log, kept consistent through interruptions. Raw files come first, then the rows, then
// the state, so a crash between two writes leaves a point pending (re-measured), never half-recorded.
import {
  type ClientFigures,
  type Manifest,
  type PointEntry,
  type PointRow,
  rowKey,
} from '../../contract/index.ts';
import type { PlannedPoint } from './plan.ts';
import type { RunFolder } from './run-folder.ts';

type RowPair = { sim?: PointRow; real?: PointRow };

/** Bookkeeping of one run (a fresh one, or a resumed one read back from its folder). */
export class RunRecord {
  private readonly entries: Map<string, PointEntry>;
  private readonly rows = new Map<string, RowPair>();

  constructor(
    private readonly folder: RunFolder,
    private readonly plan: readonly PlannedPoint[],
    readonly manifest: Manifest,
  ) {
    this.entries = new Map(manifest.points.map((e) => [e.key, e]));
    // Rows worth keeping are those of finished points; a point measured again gets fresh rows.
    for (const r of folder.readPoints()) {
      // sim+net rows are derived from the finished run (`compare` writes them again at the end).
      if (r.source === 'sim+net') continue;
      const state = this.entries.get(rowKey(r))?.state;
      if (state !== 'done' && state !== 'failed') continue;
      const pair = this.rows.get(rowKey(r)) ?? {};
      pair[r.source] = r;
      this.rows.set(rowKey(r), pair);
    }
  }

  /** Writes the manifest and a points.csv without rows of unfinished points. */
  open(event: 'run-start' | 'run-resume'): void {
    this.folder.event(event, { points: this.plan.length, pid: process.pid });
    this.save();
    this.folder.writePoints(this.orderedRows());
  }

  /** The entry of a planned point. */
  entry(pp: PlannedPoint): PointEntry {
    return this.entries.get(pp.key)!;
  }

  /** Planned points still to measure, in run order. */
  pending(): PlannedPoint[] {
    return this.plan.filter((pp) => this.entry(pp).state === 'pending');
  }

  /** Replaces manifest.json. */
  save(): void {
    this.folder.writeManifest(this.manifest);
  }

  /** A point starts (on `lane`, in a run of several lanes: the manifest says which measured it). */
  started(pp: PlannedPoint, lane?: number): void {
    const e = this.entry(pp);
    e.startedAt = new Date().toISOString();
    delete e.reason;
    delete e.endedAt;
    delete e.stealShare;
    if (lane === undefined) delete e.lane;
    else e.lane = lane;
    this.save();
    this.folder.event('point-start', { key: pp.key, slug: pp.slug, ...(lane === undefined ? {} : { lane }) });
  }

  /** A point whose lane was lost goes back to pending, to be measured on another lane. */
  requeued(pp: PlannedPoint, lane: number, reason: string): void {
    const e = this.entry(pp);
    delete e.startedAt;
    delete e.lane;
    this.save();
    this.folder.event('point-moved', { key: pp.key, lane, reason });
  }

  /** A point was interrupted: it stays pending (a resume measures it again). */
  interrupted(pp: PlannedPoint, reason: string): void {
    const e = this.entry(pp);
    e.reason = `${reason}; --resume measures it again`;
    delete e.startedAt;
    this.save();
    this.folder.event('point-interrupted', { key: pp.key });
  }

  /**
   * A point ended: its rows (sim always, real when done), then its state. `reason` null = done. `clients`:
   * each load generator's figures when several measured the point.
   */
  finished(
    pp: PlannedPoint,
    sim: PointRow | undefined,
    real: PointRow | null,
    reason: string | null,
    log = {},
    clients: ClientFigures[] | null = null,
  ): void {
    this.rows.set(pp.key, { sim, ...(reason === null && real ? { real } : {}) });
    this.folder.writePoints(this.orderedRows());
    const e = this.entry(pp);
    e.state = reason === null ? 'done' : 'failed';
    if (reason !== null) e.reason = reason;
    if (clients !== null) e.clients = clients;
    else delete e.clients;
    e.endedAt = new Date().toISOString();
    this.save();
    this.folder.event(reason === null ? 'point-done' : 'point-failed', {
      key: pp.key,
      ...log,
      reason: reason ?? undefined,
    });
  }

  /** Counts of points by state. */
  counts(): { done: number; failed: number; pending: number } {
    const n = (s: string) => this.manifest.points.filter((e) => e.state === s).length;
    return { done: n('done'), failed: n('failed'), pending: n('pending') };
  }

  /** Marks the run ended with its exit code. */
  close(exitCode: number): void {
    this.manifest.finishedAt = new Date().toISOString();
    this.manifest.exitCode = exitCode;
    this.save();
    this.folder.event('run-end', { exitCode, ...this.counts() });
  }

  /** points.csv rows in plan order, sim before real. */
  private orderedRows(): PointRow[] {
    return this.plan.flatMap((pp) => {
      const pair = this.rows.get(pp.key);
      return pair ? [pair.sim, pair.real].filter((r): r is PointRow => r !== undefined) : [];
    });
  }
}
