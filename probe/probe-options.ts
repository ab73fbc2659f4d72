// The probe's options, their defaults and their checks: every bound on rate and time is here, and bad
// values are refused before a request is sent.

import { isLocalTargetHost } from '../runtime/index.ts';
import { ProbeOptionsError } from './errors.ts';
import { parseProbeUrl } from './requester.ts';

/** What a caller may set; only `target` is required. */
export interface ProbeOptions {
  /** http:// URL; `{n}` becomes a running request number. */
  target: string;
  /** A trivial request on the same server (a health check), whose latency is the network floor; '' = TCP connect time. */
  floorUrl?: string;
  /** The ramp never offers more than this, requests per second (default 1000). */
  maxRate?: number;
  /** The whole probe ends within this, seconds (default 180). */
  maxSeconds?: number;
  /** A request without response headers after this fails as a timeout, ms (default 5000). */
  timeoutMs?: number;
  /** Requests of the low-load phase, one at a time (default 2000). */
  lowLoadRequests?: number;
  /** Length of one ramp step, s (default 4). */
  stepSeconds?: number;
  /** Rate factor between steps (default 1.25). */
  stepGrowth?: number;
  /** Knee: p90 above (1 + this) × the low-load p90 (default 0.5). */
  kneeP90Rise?: number;
  /** Knee: p50 above (1 + this) × the low-load p50 (default 0.25). */
  kneeP50Rise?: number;
  /** A step stops sending with more than this many requests in flight (default 2000). */
  maxInflight?: number;
  /** Fewest low-load answers to fit from (default 200). */
  minSamples?: number;
  /** A service time p50 below this, ms, cannot be told from the network (default 0.5). */
  minServiceMs?: number;
  /** Calls per simulated step of the fitted model (default 20 000). */
  simCalls?: number;
  /** Seed of the Poisson arrivals and of the simulations (default 1). */
  seed?: number;
  /** Probe a host outside loopback and the lab's 198.18.0.0/15 (default false: such a target is refused). */
  allowAnyTarget?: boolean;
  /** Receives one line per phase and step. */
  onProgress?: (line: string) => void;
}

export type ResolvedProbeOptions = Required<ProbeOptions>;

/** Fills the defaults and checks every value (ProbeOptionsError names the option and the fix). */
export function resolveProbeOptions(o: ProbeOptions): ResolvedProbeOptions {
  const host = parseProbeUrl(o.target).url.hostname;
  if (!o.allowAnyTarget && !isLocalTargetHost(host)) {
    throw new ProbeOptionsError(
      `--target host ${host} is outside loopback (127.0.0.0/8) and the lab (198.18.0.0/15); if it is a service you own, pass --allow-any-target to probe it`,
    );
  }
  if (o.floorUrl !== undefined && o.floorUrl !== '') {
    const f = parseProbeUrl(o.floorUrl).origin;
    if (f !== parseProbeUrl(o.target).origin) {
      throw new ProbeOptionsError(
        `--floor-url ${o.floorUrl} is not on the target's server ${parseProbeUrl(o.target).origin}; the probe sends nowhere else`,
      );
    }
  }
  const r: ResolvedProbeOptions = {
    target: o.target,
    floorUrl: o.floorUrl ?? '',
    allowAnyTarget: o.allowAnyTarget ?? false,
    maxRate: o.maxRate ?? 1000,
    maxSeconds: o.maxSeconds ?? 180,
    timeoutMs: o.timeoutMs ?? 5000,
    lowLoadRequests: o.lowLoadRequests ?? 2000,
    stepSeconds: o.stepSeconds ?? 4,
    stepGrowth: o.stepGrowth ?? 1.25,
    kneeP90Rise: o.kneeP90Rise ?? 0.5,
    kneeP50Rise: o.kneeP50Rise ?? 0.25,
    maxInflight: o.maxInflight ?? 2000,
    minSamples: o.minSamples ?? 200,
    minServiceMs: o.minServiceMs ?? 0.5,
    simCalls: o.simCalls ?? 20_000,
    seed: o.seed ?? 1,
    onProgress: o.onProgress ?? (() => {}),
  };
  const check = (name: string, v: number, lo: number, hi: number, fix: string) => {
    if (!(Number.isFinite(v) && v >= lo && v <= hi)) {
      throw new ProbeOptionsError(`--${name} must be a number in [${lo}, ${hi}], got ${v}; ${fix}`);
    }
  };
  check('max-rate', r.maxRate, 0.1, 100_000, 'it caps the offered requests per second');
  check('max-seconds', r.maxSeconds, 5, 3600, 'it bounds the whole probe');
  check('timeout-ms', r.timeoutMs, 1, 600_000, 'a request slower than this counts as a timeout');
  check('low-load-requests', r.lowLoadRequests, 10, 1_000_000, 'more fits the tail better');
  check('step-seconds', r.stepSeconds, 0.2, 600, 'each ramp step lasts this long');
  check('step-growth', r.stepGrowth, 1.01, 4, 'the rate grows by this factor per step');
  check('knee-p90-rise', r.kneeP90Rise, 0.01, 100, 'the knee is a rise of p90 by this fraction');
  check('knee-p50-rise', r.kneeP50Rise, 0.01, 100, 'the knee is a rise of p50 by this fraction');
  check('max-inflight', r.maxInflight, 1, 100_000, 'a step stops above this many requests in flight');
  check('min-samples', r.minSamples, 10, 1_000_000, 'fewest answers to fit from');
  check('min-service-ms', r.minServiceMs, 0, 60_000, 'service times below this are not fitted');
  check('sim-calls', r.simCalls, 1000, 10_000_000, 'calls per simulated step');
  check('seed', r.seed, 0, 2 ** 31, 'any whole number');
  if (r.lowLoadRequests < r.minSamples) {
    throw new ProbeOptionsError(
      `--low-load-requests ${r.lowLoadRequests} is below --min-samples ${r.minSamples}; raise it`,
    );
  }
  return r;
}
