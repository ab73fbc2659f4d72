// Measures one point: reset the target (hedgebench's own; a foreign service is only loaded), run the load
// generator, watch it, then move its data from Redis to raw/ and check that nothing was lost. Returns what
// happened; the run records it.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rawFilesAt, rawPaths, redisKeys } from '../contract/index.ts';
import type { AgentRegistry } from './agent-registry.ts';
import type { Deployed } from './deploy.ts';
import { type DrainResult, drainPoint, pointHasKeys } from './drain.ts';
import type { Host } from './hosts/index.ts';
import {
  type ForeignLoad,
  type LoadgenProcess,
  loadgenLogTail,
  startLoadgen,
  stopLoadgen,
} from './loadgen-agent.ts';
import type { PlannedPoint } from './plan.ts';
import { type StatusSnapshot, watchPoint } from './point-watch.ts';
import type { RedisService } from './redis-service.ts';
import type { RunFolder } from './run-folder.ts';
import type { TargetAgent } from './target-agent.ts';

/** Timing knobs of a point (defaults in DEFAULT_POINT_TIMING). */
export interface PointTiming {
  /** No change in the generator's status for this long = it hangs. */
  staleMs: number;
  /** Time the generator may take to write its first status. */
  startupMs: number;
  /** The generator's own cap = expected duration × this + slackMs. */
  capFactor: number;
  slackMs: number;
}

/** Defaults: stale after 8 s, 20 s to start, the generator capped at 2× its schedule + 15 s. */
export const DEFAULT_POINT_TIMING: Readonly<PointTiming> = Object.freeze({
  staleMs: 8_000,
  startupMs: 20_000,
  capFactor: 2,
  slackMs: 15_000,
});

/** Everything a point needs from the run. */
export interface PointDeps {
  folder: RunFolder;
  run: string;
  redis: RedisService;
  /** hedgebench's target server, or null when the matrix names a foreign service (`foreign`). */
  target: TargetAgent | null;
  /** The user's own service: no target server, no control routes, nothing recorded on its side. */
  foreign: (ForeignLoad & { origin: string }) | null;
  loadgenHost: Host;
  loadgen: Deployed;
  registry: AgentRegistry;
  timing: PointTiming;
  signal: AbortSignal;
  /** Progress of the running point (called on every status poll). */
  onStatus: (s: StatusSnapshot, elapsedMs: number) => void;
  /** A line for the log and the user (target restarted, leftovers drained…). */
  note: (text: string) => void;
}

/** What happened to a point. */
export type PointOutcome =
  | { kind: 'done'; drained: DrainResult; phases: Record<string, number> }
  | { kind: 'failed'; reason: string; drained: DrainResult | null }
  | { kind: 'interrupted'; reason: string };

/** Runs one point end to end; never throws for a point-level problem (it becomes `failed`). */
export async function measurePoint(pp: PlannedPoint, d: PointDeps): Promise<PointOutcome> {
  const p = pp.point;
  const keys = redisKeys(d.run, pp.slug);
  let lg: LoadgenProcess | null = null;
  // Where a point's time goes beyond its schedule (ms per phase), for the log and for tuning.
  const phases: Record<string, number> = {};
  let mark = Date.now();
  const phase = (name: string) => {
    const now = Date.now();
    phases[name] = now - mark;
    mark = now;
  };
  try {
    const target = d.target;
    if (target && (await target.ensure()))
      d.note(`target server was not answering; restarted it (pid ${target.pid})`);
    if (await pointHasKeys(d.redis.client, d.run, pp.slug)) {
      // An interrupted earlier attempt of this point: keep its data aside rather than delete it unseen.
      const dir = join(d.folder.rawDir, 'interrupted');
      mkdirSync(dir, { recursive: true });
      await drainPoint(d.redis.client, d.run, pp.slug, rawFilesAt(dir, `${pp.slug}.${Date.now()}`));
      d.note(`moved Redis data of an interrupted earlier attempt of ${pp.key} to ${dir}`);
    }
    await target?.client.prepare({
      workers: p.model.workers,
      model: { ...p.model, service: p.model.service ?? null },
      seed: p.seed,
      cancellation: p.cancellation,
      run: d.run,
      slug: pp.slug,
    });
    phase('prepare');
    const capMs = pp.expectedMs * d.timing.capFactor + d.timing.slackMs;
    lg = await startLoadgen(
      d.loadgenHost,
      {
        deployed: d.loadgen,
        targetUrl: target?.url ?? d.foreign!.origin,
        ...(target?.grpcAddress ? { grpcTarget: target.grpcAddress } : {}),
        ...(d.foreign ? { foreign: { path: d.foreign.path, allowAnyTarget: d.foreign.allowAnyTarget } } : {}),
        point: p,
        redisUrl: d.redis.url,
        run: d.run,
        slug: pp.slug,
        maxSeconds: capMs / 1000,
      },
      d.registry,
    );
    const started = lg;
    const outcome = await watchPoint({
      redis: d.redis.client,
      statusKey: keys.status,
      loadgenAlive: () => started.host.isAlive(started.pid),
      // A foreign service's health is the load generator's to see (failed calls), not a process to watch.
      targetAlive: () => (target ? target.isAlive() : Promise.resolve(true)),
      loadgenLog: () => loadgenLogTail(started),
      signal: d.signal,
      onStatus: d.onStatus,
      timeoutMs: capMs + d.timing.startupMs + 10_000,
      staleMs: d.timing.staleMs,
      startupMs: d.timing.startupMs,
    });
    phase('measure');
    await finishLoadgen(lg, outcome.kind === 'done', d.registry);
    lg = null;
    phase('loadgenExit');
    const targetRecorder = target ? await finishTarget(target, d.note) : null;
    const targetCheck = target && targetRecorder !== null ? await targetSelfCheck(target) : null;
    phase('targetFlush');
    const paths = rawPaths(d.folder.dir, pp.slug);
    // A foreign service records no attempts: no attempts file, so its server-side columns stay empty.
    const drained = await drainPoint(
      d.redis.client,
      d.run,
      pp.slug,
      target ? paths : { ...paths, attempts: null },
      {
        ...(targetRecorder ? { target_recorder: targetRecorder } : {}),
        ...(targetCheck ? { target_check: targetCheck } : {}),
      },
    );
    phase('drain');
    const dup = drained.duplicates;
    if (dup.calls + dup.attempts > 0) {
      d.note(
        `${pp.key}: ${dup.calls} call and ${dup.attempts} attempt records were in Redis twice (a batch retried across a reconnect); each was written once`,
      );
    }
    if (outcome.kind === 'interrupted') return outcome;
    if (outcome.kind === 'failed') return { ...outcome, drained };
    const lost = lostRecords(drained, targetRecorder);
    if (lost) return { kind: 'failed', reason: lost, drained };
    return { kind: 'done', drained, phases };
  } catch (err) {
    if (lg) await finishLoadgen(lg, false, d.registry).catch(() => {});
    if (d.signal.aborted) return { kind: 'interrupted', reason: String(d.signal.reason) };
    return { kind: 'failed', reason: (err as Error).message, drained: null };
  }
}

/** Lets a finished generator exit on its own for a moment (its data is already in Redis), else stops it. */
async function finishLoadgen(lg: LoadgenProcess, done: boolean, registry: AgentRegistry): Promise<void> {
  const deadline = Date.now() + (done ? 500 : 0);
  while (Date.now() < deadline && (await lg.host.isAlive(lg.pid))) await sleep(50);
  await stopLoadgen(lg, registry);
}

/**
 * Closes the point on the target (flushing its attempt records); null when the target is gone. A target
 * that cannot drain its queue is restarted, so the next point starts on an idle server.
 */
async function finishTarget(
  target: TargetAgent,
  note: (text: string) => void,
): Promise<Record<string, unknown> | null> {
  if (!(await target.isAlive())) return null;
  try {
    return await target.client.finishPoint();
  } catch (err) {
    note(`${(err as Error).message}; restarting the target server`);
    await target.restart();
    return null;
  }
}

/**
 * The target's own figures of the point just measured (its counters run from the point's reset): hold
 * overshoot and event-loop delay, which the analysis checks against the matrix's thresholds. Null when the
 * target cannot say (gone, or restarted: its counters would then describe nothing).
 */
async function targetSelfCheck(target: TargetAgent): Promise<Record<string, unknown> | null> {
  try {
    const s = await target.client.stats();
    const pick = [
      'holdErrorMs',
      'responseDelayMs',
      'eventLoopDelayMs',
      'eventLoopUtilisation',
      'cpu',
      'utilisation',
      'sinceResetMs',
    ];
    return Object.fromEntries(pick.filter((k) => k in s).map((k) => [k, s[k]]));
  } catch {
    return null;
  }
}

/** Why the records on disk are not the whole point, or null when nothing was lost. */
function lostRecords(drained: DrainResult, targetRecorder: Record<string, unknown> | null): string | null {
  const summary = (drained.status?.summary ?? null) as {
    measured?: { ok: number; rejected: number; failed: number };
    recorder?: { dropped: number } | null;
  } | null;
  const problems: string[] = [];
  if (summary?.measured) {
    const expected = summary.measured.ok + summary.measured.rejected + summary.measured.failed;
    if (drained.calls < expected) {
      problems.push(
        `${expected - drained.calls} of ${expected} call records lost (on disk ${drained.calls})`,
      );
    }
  }
  const lgDropped = summary?.recorder?.dropped ?? 0;
  if (lgDropped > 0) problems.push(`the load generator dropped ${lgDropped} call records`);
  const tDropped = Number(targetRecorder?.dropped ?? 0);
  if (tDropped > 0) problems.push(`the target server dropped ${tDropped} attempt records`);
  return problems.length > 0 ? problems.join('; ') : null;
}
