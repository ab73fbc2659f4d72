// The target servers of one point: replicas 0..R−1 of the run's targets (the rest stay idle), made healthy,
// prepared with their replica index, watched, finished and checked together. With one replica every figure
// is that target's own, exactly as before replicas existed.

import type { TargetConfig } from '../../contract/index.ts';
import {
  type Point,
  parsePerturbation,
  peerCancelCopies,
  perturbedCancellation,
  perturbedModel,
  type ReplicaSetup,
  replicaSetupOf,
  timeScaleOf,
} from '../../model/index.ts';
import type { TargetAgent } from '../agents/target-agent.ts';
import { TargetControlError } from '../errors.ts';

/** The target's figures of a point that are percentile summaries: with replicas, the worst replica's. */
const WORST_OF = ['holdErrorMs', 'responseDelayMs', 'eventLoopDelayMs'] as const;
/** What the target's /stats says about a point that travels with it (status.json `target_check`). */
const CHECK_FIELDS = [
  'holdErrorMs',
  'responseDelayMs',
  'eventLoopDelayMs',
  'eventLoopUtilisation',
  'cpu',
  'utilisation',
  'sinceResetMs',
];

type Figures = Record<string, unknown>;

/**
 * What replica `replica` of a point is set to: the model, seed, its replica index, shared stragglers, the
 * slow one; for a tied point (copies cancelling each other on start) its copies and every replica's URL
 * (`urls`, replica 0 first: where the other target servers reach each one). A perturbed point's targets run the
 * perturbed service (model/perturb.ts) — the model as the target runs it, not as the simulation and the load
 * generator's schedule take it.
 */
export function targetConfigOf(
  p: Point,
  s: ReplicaSetup,
  replica: number,
  run: string,
  slug: string,
  urls: readonly string[] = [],
): TargetConfig {
  const tiedCopies = peerCancelCopies(p.config);
  const perturb = parsePerturbation(p.dims?.perturb ?? '');
  const model = perturbedModel(p.model, perturb);
  return {
    workers: model.workers,
    model: { ...model, service: model.service ?? null },
    seed: p.seed,
    cancellation: perturbedCancellation(p.cancellation, perturb),
    responseDelayMs: perturb.responseDelayMs ?? 0,
    run,
    slug,
    // Always sent: a target keeps the last point's values of fields a prepare leaves out.
    replica,
    replicas: s.replicas,
    correlation: s.correlation,
    slowReplica: s.slowReplica,
    timeScale: timeScaleOf(p),
    // A target cancels a tied copy's siblings at these URLs; an untied point's targets know no peers.
    tiedCopies,
    peers: tiedCopies > 0 ? [...urls] : [],
  };
}

/** The targets a point uses. */
export class PointTargets {
  readonly used: readonly TargetAgent[];
  readonly setup: ReplicaSetup;

  constructor(
    all: readonly TargetAgent[],
    private readonly point: Point,
  ) {
    this.setup = replicaSetupOf(point.dims);
    if (this.setup.replicas > all.length) {
      throw new TargetControlError(
        `the point needs ${this.setup.replicas} replicas but the run started ${all.length} target servers; run it again (the matrix's replicas decide how many start)`,
      );
    }
    this.used = all.slice(0, this.setup.replicas);
  }

  /** `--target` and `--replica-target` URLs for the load generator (replica 0 first). */
  get urls(): string[] {
    return this.used.map((t) => t.url);
  }

  /** Makes sure every replica of the point answers: restarts one that died or stopped answering. */
  async ensure(note: (text: string) => void): Promise<void> {
    for (const [r, t] of this.used.entries()) {
      if (await t.ensure()) note(`${this.label(r)} was not answering; restarted it (pid ${t.pid})`);
    }
  }

  /** Sets every replica to the point (targetConfigOf) and resets it. */
  async prepare(run: string, slug: string): Promise<void> {
    await Promise.all(
      this.used.map((t, replica) =>
        t.client.prepare(targetConfigOf(this.point, this.setup, replica, run, slug, this.urls)),
      ),
    );
  }

  /** True while every replica of the point runs. */
  async alive(): Promise<boolean> {
    for (const t of this.used) if (!(await t.isAlive())) return false;
    return true;
  }

  /**
   * Closes the point on every replica (flushing its attempt records). One replica: its recorder's counters,
   * null when it is gone. Several: the counters summed, each replica's under `replicas`; null when all are gone.
   */
  async finish(note: (text: string) => void): Promise<Figures | null> {
    const each: (Figures | null)[] = [];
    for (const [r, t] of this.used.entries()) each.push(await this.finishOne(r, t, note));
    if (each.length === 1) return each[0];
    if (each.every((x) => x === null)) return null;
    const sum = (k: string) => each.reduce((n, x) => n + Number(x?.[k] ?? 0), 0);
    return { written: sum('written'), dropped: sum('dropped'), replicas: each };
  }

  /**
   * The targets' own figures of the point just measured (their counters run from the point's reset): hold
   * overshoot and event-loop delay, which the analysis checks against the matrix's thresholds. With several
   * replicas each percentile summary is the worst replica's and every replica's figures are under `replicas`.
   * Null when a target cannot say (gone, or restarted: its counters would then describe nothing).
   */
  async selfCheck(): Promise<Figures | null> {
    const each: Figures[] = [];
    // A tied point's peer cancels travel with it too (summed over the replicas), and each server's clock's
    // epoch origin, which sets their records on one clock; other points' status.json is as it was before.
    const fields =
      peerCancelCopies(this.point.config) > 0
        ? [...CHECK_FIELDS, 'peerCancel', 'clockEpochMs']
        : CHECK_FIELDS;
    for (const t of this.used) {
      try {
        const s = await t.client.stats();
        each.push(Object.fromEntries(fields.filter((k) => k in s).map((k) => [k, s[k]])));
      } catch {
        return null;
      }
    }
    if (each.length === 1) return each[0];
    const worst: Figures = {};
    for (const k of WORST_OF) {
      const p99 = (f: Figures) => Number((f[k] as { p99?: number | null } | undefined)?.p99 ?? -1);
      const top = each.reduce((a, b) => (p99(b) > p99(a) ? b : a));
      if (k in top) worst[k] = top[k];
    }
    const tied = each.some((f) => 'peerCancel' in f) ? { peerCancel: sumCounters(each, 'peerCancel') } : {};
    return { ...worst, ...tied, replicas: each };
  }

  /** Closes the point on one target; null when it is gone. One that cannot drain its queue is restarted. */
  private async finishOne(r: number, t: TargetAgent, note: (text: string) => void): Promise<Figures | null> {
    if (!(await t.isAlive())) return null;
    try {
      return await t.client.finishPoint();
    } catch (err) {
      note(`${(err as Error).message}; restarting the ${this.label(r)}`);
      await t.restart();
      return null;
    }
  }

  private label(r: number): string {
    return this.used.length === 1 ? 'target server' : `target server of replica ${r}`;
  }
}

// The counters under `field` of every replica's figures, added up key by key.
function sumCounters(each: readonly Figures[], field: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of each) {
    for (const [k, v] of Object.entries((f[field] ?? {}) as Record<string, unknown>)) {
      if (typeof v === 'number') out[k] = (out[k] ?? 0) + v;
    }
  }
  return out;
}
