// Measures one point: reset its targets (one per replica; a foreign service is only loaded), run its load
// generator (or its K load generators, one per client), watch them, then move its data from Redis to raw/ and
// check that nothing was lost. Returns what happened; the run records it.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rawFilesAt, rawPaths, redisKeys, type StatusHash, type SummaryRead } from '../../contract/index.ts';
import { countsHedgesOnError, peerCancelCopies, pointClients, timeScaleOf } from '../../model/index.ts';
import type { AgentRegistry } from '../agents/agent-registry.ts';
import type { Deployed } from '../agents/deploy.ts';
import {
  type ForeignLoad,
  type LoadgenProcess,
  launcherFor,
  loadgenLogTail,
  startLoadgen,
  stopLoadgen,
} from '../agents/loadgen-agent.ts';
import type { RedisService } from '../agents/redis-service.ts';
import type { TargetAgent } from '../agents/target-agent.ts';
import type { Host } from '../hosts/index.ts';
import type { PlannedPoint } from '../plan/plan.ts';
import type { RunFolder } from '../plan/run-folder.ts';
import { type DrainResult, drainPoint, pointHasKeys } from './drain.ts';
import { PointTargets } from './point-targets.ts';
import { watchGenerators } from './point-watch.ts';

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
interface PointDeps {
  folder: RunFolder;
  run: string;
  redis: RedisService;
  /** The run's target servers, replica 0 first; a point uses as many as it has replicas (none: foreign). */
  targets: readonly TargetAgent[];
  /** The user's own service: no target server, no control routes, nothing recorded on its side. */
  foreign: (ForeignLoad & { origin: string }) | null;
  /** The lane's load-generator hosts and their bundles: client i runs on entry i mod their number. */
  loadgenHosts: readonly Host[];
  loadgens: readonly Deployed[];
  registry: AgentRegistry;
  timing: PointTiming;
  /** The load generator's self-check limit on its send-lag p99, model ms (the matrix's `fidelity.sendLagP99Ms`). */
  sendLagThresholdMs: number;
  signal: AbortSignal;
  /** Progress of the running point (called on every status poll). */
  onStatus: (s: StatusHash, elapsedMs: number) => void;
  /** A line for the log and the user (target restarted, leftovers drained…). */
  note: (text: string) => void;
}

/** What happened to a point. */
type PointOutcome =
  | { kind: 'done'; drained: DrainResult; phases: Record<string, number> }
  | { kind: 'failed'; reason: string; drained: DrainResult | null }
  | { kind: 'interrupted'; reason: string };

/** Runs one point end to end; never throws for a point-level problem (it becomes `failed`). */
export async function measurePoint(pp: PlannedPoint, d: PointDeps): Promise<PointOutcome> {
  const p = pp.point;
  const keys = redisKeys(d.run, pp.slug);
  const K = pointClients(p);
  // Every started generator is in this list until it is stopped: an abort or an error stops all of them.
  let lgs: LoadgenProcess[] = [];
  // Where a point's time goes beyond its schedule (ms per phase), for the log and for tuning.
  const phases: Record<string, number> = {};
  let mark = Date.now();
  const phase = (name: string) => {
    const now = Date.now();
    phases[name] = now - mark;
    mark = now;
  };
  try {
    const targets = d.foreign ? null : new PointTargets(d.targets, p);
    const replicas = targets?.setup.replicas ?? 1;
    // Such a point's call records end in hedged_on_error (contract/records.ts callFields); a tied one's attempt
    // records in its peer cancels (attemptFields).
    const onError = countsHedgesOnError(p.config, p.model);
    const tied = peerCancelCopies(p.config) > 0;
    await targets?.ensure(d.note);
    if (await pointHasKeys(d.redis.client, d.run, pp.slug, K)) {
      // An interrupted earlier attempt of this point: keep its data aside rather than delete it unseen.
      const dir = join(d.folder.rawDir, 'interrupted');
      mkdirSync(dir, { recursive: true });
      const to = rawFilesAt(dir, `${pp.slug}.${Date.now()}`);
      await drainPoint(d.redis.client, d.run, pp.slug, to, {}, K, replicas, onError, tied);
      d.note(`moved Redis data of an interrupted earlier attempt of ${pp.key} to ${dir}`);
    }
    await targets?.prepare(d.run, pp.slug);
    phase('prepare');
    const capMs = pp.expectedMs * d.timing.capFactor + d.timing.slackMs;
    // Client i on load-generator host i mod H, round-robin; each process has its own pipeline, and the
    // start barrier in Redis lines their schedules up. Each balances over the replicas.
    const [targetUrl, ...replicaTargets] = targets?.urls ?? [d.foreign!.origin];
    const grpc = targets?.used[0].grpcAddress ?? null;
    for (let client = 0; client < K; client++) {
      const g = client % d.loadgenHosts.length;
      const host = d.loadgenHosts[g]!;
      // The generators sharing this host: real-time priority only while they leave it cores to spare.
      const onHost = Math.ceil((K - g) / d.loadgenHosts.length);
      lgs.push(
        await startLoadgen(
          host,
          {
            deployed: launcherFor(d.loadgens[g]!, onHost, timeScaleOf(p)),
            targetUrl,
            replicaTargets,
            ...(grpc === null ? {} : { grpcTarget: grpc }),
            ...(d.foreign
              ? { foreign: { path: d.foreign.path, allowAnyTarget: d.foreign.allowAnyTarget } }
              : {}),
            point: p,
            redisUrl: d.redis.url,
            redisCaFile: await d.redis.caFileOn(host),
            run: d.run,
            slug: pp.slug,
            maxSeconds: capMs / 1000,
            sendLagThresholdMs: d.sendLagThresholdMs,
            ...(K === 1 ? {} : { client, clients: K }),
          },
          d.registry,
        ),
      );
    }
    const outcome = await watchGenerators({
      redis: d.redis.client,
      generators: lgs.map((lg, client) => ({
        statusKey: keys.clientStatus(client, K),
        alive: () => lg.host.isAlive(lg.pid),
        log: () => loadgenLogTail(lg),
      })),
      // A foreign service's health is the load generator's to see (failed calls), not a process to watch.
      targetAlive: () => (targets ? targets.alive() : Promise.resolve(true)),
      signal: d.signal,
      onStatus: d.onStatus,
      timeoutMs: capMs + d.timing.startupMs + 10_000,
      staleMs: d.timing.staleMs,
      startupMs: d.timing.startupMs,
    });
    phase('measure');
    await finishLoadgens(lgs, outcome.kind === 'done', d.registry);
    lgs = [];
    phase('loadgenExit');
    const targetRecorder = targets ? await targets.finish(d.note) : null;
    const targetCheck = targets && targetRecorder !== null ? await targets.selfCheck() : null;
    phase('targetFlush');
    const paths = rawPaths(d.folder.dir, pp.slug);
    // A foreign service records no attempts: no attempts file, so its server-side columns stay empty.
    const drained = await drainPoint(
      d.redis.client,
      d.run,
      pp.slug,
      targets ? paths : { ...paths, attempts: null },
      {
        ...(targetRecorder ? { target_recorder: targetRecorder } : {}),
        ...(targetCheck ? { target_check: targetCheck } : {}),
      },
      K,
      replicas,
      onError,
      tied,
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
    await finishLoadgens(lgs, false, d.registry).catch(() => {});
    if (d.signal.aborted) return { kind: 'interrupted', reason: String(d.signal.reason) };
    return { kind: 'failed', reason: (err as Error).message, drained: null };
  }
}

/** Lets finished generators exit on their own for a moment (their data is in Redis), else stops them. */
async function finishLoadgens(lgs: LoadgenProcess[], done: boolean, registry: AgentRegistry): Promise<void> {
  const deadline = Date.now() + (done ? 500 : 0);
  await Promise.all(
    lgs.map(async (lg) => {
      while (Date.now() < deadline && (await lg.host.isAlive(lg.pid))) await sleep(50);
      await stopLoadgen(lg, registry);
    }),
  );
}

/** Why the records on disk are not the whole point, or null when nothing was lost. */
function lostRecords(drained: DrainResult, targetRecorder: Record<string, unknown> | null): string | null {
  const summary = (drained.status?.summary ?? null) as SummaryRead | null;
  const problems: string[] = [];
  if (summary?.measured) {
    const { ok = 0, rejected = 0, failed = 0 } = summary.measured;
    const expected = ok + rejected + failed;
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
