// A run against the user's own service (the matrix's `target.url`): the address rule checked before
// anything starts, how the load generator reaches it, and the first line the run prints — what will be
// sent there, how fast, for how long.

import type { ForeignTarget } from '../../model/index.ts';
import { isLocalTargetHost, trafficLine } from '../../runtime/index.ts';
import type { ForeignLoad } from '../agents/loadgen-agent.ts';
import { RunOptionError } from '../errors.ts';
import type { PlannedPoint } from '../plan/plan.ts';
import type { PointTiming } from './point-runner.ts';

/** Throws unless the service is on loopback or in the lab's 198.18.0.0/15, or the user allowed any host. */
export function checkForeignTarget(t: ForeignTarget, allowAnyTarget: boolean): void {
  const host = new URL(t.url).hostname;
  if (allowAnyTarget || isLocalTargetHost(host)) return;
  throw new RunOptionError(
    `matrix target.url host ${host} is outside loopback (127.0.0.0/8) and the lab (198.18.0.0/15); if it is a service you own, pass --allow-any-target to load it`,
  );
}

/** What the point runner hands the load generator for a foreign service. */
export function foreignLoad(t: ForeignTarget, allowAnyTarget: boolean): ForeignLoad & { origin: string } {
  const url = new URL(t.url);
  return { origin: url.origin, path: `${url.pathname}${url.search}`, allowAnyTarget };
}

/** The run's first line for a foreign service: the URL, the points' rates and calls, and the time bound. */
export function foreignTrafficLine(
  t: ForeignTarget,
  points: readonly PlannedPoint[],
  timing: PointTiming,
): string {
  const rates = points.map((pp) => (pp.point.calls / pp.expectedMs) * 1000);
  const calls = points.reduce((n, pp) => n + pp.point.calls, 0);
  const scheduleMs = points.reduce((ms, pp) => ms + pp.expectedMs, 0);
  const capMs = points.reduce((ms, pp) => ms + pp.expectedMs * timing.capFactor + timing.slackMs, 0);
  const attempts = Math.max(1, ...points.map((pp) => maxAttempts(pp)));
  const lo = Math.min(...rates);
  const hi = Math.max(...rates);
  const range = hi - lo < 0.05 ? rate(hi) : `${rate(lo)}–${rate(hi)}`;
  const sep = t.url.includes('?') ? '&' : '?';
  return trafficLine({
    who: 'hedgebench run',
    url: `${t.url}${sep}call=N&attempt=K`,
    what: `${points.length} point${points.length === 1 ? '' : 's'} one after another, open-loop Poisson calls at ${range} calls/s (${attempts === 1 ? 'one request a call, no hedges' : `each call up to ${attempts} requests with its hedges`}), ${calls} calls in all`,
    bound: `about ${seconds(scheduleMs)} of schedules, each point cut off at ${timing.capFactor}× its schedule + ${seconds(timing.slackMs)} (at most ${seconds(capMs)} in all)`,
  });
}

// grpc-js hedging needs gRPC, which a foreign target excludes: the library's hedge is the only one here.
function maxAttempts(pp: PlannedPoint): number {
  const h = pp.point.config.hedge;
  return h === undefined ? 1 : (h.maxAttempts ?? 2);
}

function rate(x: number): string {
  return x >= 100 ? x.toFixed(0) : x.toFixed(1);
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}
