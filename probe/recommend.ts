// The recommendation: simulate the search space (probe/recommend-space.ts: fixed delays × budgets, and the
// policies beyond the study the model gives a reason to try) at the user's load with a (fitted) model, pick
// the configuration with the lowest tail latency whose requests per call stay within the user's limit and
// that fails no more calls than not hedging, and sweep the load to say from where hedging stops helping —
// the study's advice, for one service.

import type { PointRow } from '../contract/index.ts';
import { type HedgeConfig, hasFailures, type ModelParams, type Point } from '../model/index.ts';
import { runPoint } from '../simulator/index.ts';
import { ProbeOptionsError } from './errors.ts';
import { mixtureQuantile } from './fit-service.ts';
import { searchConfigs } from './recommend-space.ts';

/** What to recommend for. */
interface RecommendOptions {
  model: ModelParams;
  /** The user's expected load ρ (utilisation without hedging). */
  load: number;
  /** Most requests per call the service owner accepts (e.g. 1.1). */
  maxRequestsPerCall: number;
  /** The tail to minimise: 99 or 99.9 (default 99). */
  percentile?: 99 | 99.9;
  /** Hedge delays to try, ms (default: the service time's p75, p90, p95, p99 and 2 × p95). */
  delaysMs?: number[];
  /** Budgets to try, % of calls (0 = unlimited; default 5, 10, 20, 0). */
  budgets?: number[];
  /** Percentile delays to try, each with every budget (default 90, 95, 99; [] = none). */
  percentiles?: number[];
  /** Also try the concurrency budget and A6's token bucket at every delay (default true). */
  shapes?: boolean;
  /** The service's replicas behind the client's balancer (default 1); 2 or more adds tied requests. */
  replicas?: number;
  /** Calls per simulated point (default 40 000). */
  calls?: number;
  seed?: number;
}

/** One simulated configuration. */
export interface Candidate {
  config: HedgeConfig;
  tailMs: number;
  requestsPerCall: number;
  /** Calls that returned an error to the caller / measured calls (0 when the model fails nothing). */
  failedRate: number;
  collapsed: boolean;
}

/** The recommendation and its evidence. */
interface Recommendation {
  percentile: 99 | 99.9;
  load: number;
  maxRequestsPerCall: number;
  baseline: Candidate;
  candidates: Candidate[];
  /** The best configuration within the limit that beats no hedging, or null (then: do not hedge). */
  best: Candidate | null;
  /** Tail with and without the best configuration at each load of the sweep. */
  sweep: { load: number; noHedgeMs: number; bestMs: number; bestRequestsPerCall: number }[];
  /** The lowest load of the sweep from which the best configuration no longer beats no hedging. */
  stopsHelpingAt: number | null;
  /** True when the model fails attempts: the grid then says how many calls each configuration failed. */
  failures: boolean;
  /** The service's replicas the search ran against (1 = one queue). */
  replicas: number;
}

const SWEEP_LOADS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95];

/** Simulates the grid and the sweep; deterministic for its options. */
export function recommend(o: RecommendOptions): Recommendation {
  const percentile = o.percentile ?? 99;
  if (percentile !== 99 && percentile !== 99.9) {
    throw new ProbeOptionsError(`--percentile must be 99 or 99.9, got ${percentile}`);
  }
  if (!(o.load > 0 && o.load < 1.5)) {
    throw new ProbeOptionsError(`--load must be in (0, 1.5), the utilisation without hedging; got ${o.load}`);
  }
  if (!(o.maxRequestsPerCall >= 1 && o.maxRequestsPerCall <= 10)) {
    throw new ProbeOptionsError(
      `--max-requests-per-call must be in [1, 10] (1.1 = at most 10 % extra requests); got ${o.maxRequestsPerCall}`,
    );
  }
  const calls = o.calls ?? 40_000;
  const seed = o.seed ?? 1;
  const q = (p: number) => Math.round(mixtureQuantile(o.model, p) * 10) / 10;
  const delays = o.delaysMs ?? [
    ...new Set([q(0.75), q(0.9), q(0.95), q(0.99), Math.round(q(0.95) * 20) / 10]),
  ];
  const budgets = o.budgets ?? [5, 10, 20, 0];
  const replicas = o.replicas ?? 1;
  if (!(Number.isInteger(replicas) && replicas >= 1 && replicas <= 64)) {
    throw new ProbeOptionsError(
      `--replicas must be a whole number in 1..64 (the service's replicas behind your client's balancer); got ${replicas}`,
    );
  }
  const sim = (config: HedgeConfig, load: number): Candidate => {
    const point: Point = {
      config,
      load,
      cancellation: 'ignore',
      seed,
      calls,
      warmupFraction: 0.1,
      model: o.model,
      ...(replicas > 1 ? { dims: { replicas } } : {}),
    };
    const r = runPoint(point);
    return {
      config,
      tailMs: tail(r.row, percentile),
      requestsPerCall: r.row.requests_per_call ?? Number.NaN,
      failedRate: r.row.failed_rate ?? 0,
      collapsed: r.collapse.collapsed,
    };
  };
  const configs = searchConfigs({
    model: o.model,
    load: o.load,
    delaysMs: delays,
    budgets,
    percentiles: o.percentiles ?? [90, 95, 99],
    shapes: o.shapes ?? true,
    replicas,
  });
  const baseline = sim({ name: 'no hedge' }, o.load);
  const candidates = configs.map((c) => sim(c, o.load));
  // A hedge that returns more errors than not hedging (first-completion's fast failures) trades errors for
  // latency: the tail of the calls that succeeded hides them, so such a configuration is not chosen.
  const within = candidates.filter(
    (c) => !c.collapsed && c.requestsPerCall <= o.maxRequestsPerCall && c.failedRate <= baseline.failedRate,
  );
  const top = within.reduce<Candidate | null>((a, c) => (a === null || c.tailMs < a.tailMs ? c : a), null);
  const best = top !== null && (baseline.collapsed || top.tailMs < baseline.tailMs) ? top : null;
  const chosen = best ?? top;
  const sweep = SWEEP_LOADS.map((load) => {
    const n = sim({ name: 'no hedge' }, load);
    const b = chosen === null ? n : sim(chosen.config, load);
    return { load, noHedgeMs: n.tailMs, bestMs: b.tailMs, bestRequestsPerCall: b.requestsPerCall };
  });
  const stop = sweep.find((s) => !(s.bestMs < s.noHedgeMs));
  return {
    percentile,
    load: o.load,
    maxRequestsPerCall: o.maxRequestsPerCall,
    baseline,
    candidates,
    best,
    sweep,
    stopsHelpingAt: stop === undefined ? null : stop.load,
    failures: hasFailures(o.model),
    replicas,
  };
}

function tail(row: PointRow, p: 99 | 99.9): number {
  const v = p === 99 ? row.p99_ms : row.p999_ms;
  return v ?? Number.NaN;
}

/** The recommendation as Markdown. */
export function formatRecommendation(r: Recommendation): string {
  const p = `p${r.percentile}`;
  const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  const errors = (c: Candidate) => (r.failures ? ` | ${pct(c.failedRate)}` : '');
  const fits = (c: Candidate) =>
    c.requestsPerCall > r.maxRequestsPerCall
      ? 'no'
      : c.failedRate > r.baseline.failedRate
        ? 'no (fails more calls than no hedge)'
        : 'yes';
  const head = r.best
    ? `**Recommended at load ${r.load}: ${r.best.config.name}** — ${p} ${ms(r.best.tailMs)} ms against ${ms(r.baseline.tailMs)} ms without hedging, ${r.best.requestsPerCall.toFixed(3)} requests per call (limit ${r.maxRequestsPerCall}).`
    : `**Do not hedge at load ${r.load}**: no configuration within ${r.maxRequestsPerCall} requests per call beats ${p} ${ms(r.baseline.tailMs)} ms without hedging.`;
  return [
    '# Hedging recommendation (simulated with the model)',
    '',
    head,
    '',
    // The configuration as a matrix takes it, to confirm it with `hedgebench run` on the service itself.
    ...(r.best ? [`As a matrix configuration: \`${JSON.stringify(r.best.config)}\``, ''] : []),
    ...(r.replicas > 1 ? [`Simulated against ${r.replicas} replicas behind a random balancer.`, ''] : []),
    r.stopsHelpingAt === null
      ? `Hedging helps at every load of the sweep up to ${SWEEP_LOADS[SWEEP_LOADS.length - 1]}.`
      : `Hedging stops helping from load ${r.stopsHelpingAt}: from there the extra requests cost more queueing than they save.`,
    '',
    `## Grid at load ${r.load}`,
    '',
    `| configuration | ${p} ms | requests per call${r.failures ? ' | calls failed' : ''} | within limit |`,
    `| --- | --- | ---${r.failures ? ' | ---' : ''} | --- |`,
    `| no hedge | ${ms(r.baseline.tailMs)} | 1.000${errors(r.baseline)} | yes |`,
    ...r.candidates.map(
      (c) =>
        `| ${c.config.name} | ${c.collapsed ? 'collapse' : ms(c.tailMs)} | ${c.requestsPerCall.toFixed(3)}${errors(c)} | ${fits(c)} |`,
    ),
    '',
    '## Load sweep',
    '',
    `| load | ${p} no hedge | ${p} ${r.best ? r.best.config.name : 'best in grid'} | requests per call |`,
    '| --- | --- | --- | --- |',
    ...r.sweep.map(
      (s) => `| ${s.load} | ${ms(s.noHedgeMs)} | ${ms(s.bestMs)} | ${s.bestRequestsPerCall.toFixed(3)} |`,
    ),
    '',
  ].join('\n');
}
