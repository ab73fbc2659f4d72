// Fast failures and server pushback in the service model: whether an attempt fails (a counter-based draw of
// its own, so the simulator and the target server fail the same attempts), how long a failing attempt holds
// its worker, and when a response asks the client to stop hedging. Absent fields are today's model: nothing
// fails and nothing pushes back, and no draw is made.

import type { HedgeConfig } from './hedge-config.ts';
import type { ModelParams, PushbackRule } from './params.ts';
import { STREAM, uniform } from './rng.ts';
import { meanServiceMs } from './service-time.ts';

/**
 * How long a failing attempt holds its worker when the model does not say, ms: a fast failure (a tenth of
 * the reference service's median), the kind a first-completion client returns before a hedge could help.
 */
export const DEFAULT_ERROR_MS = 1;

/** True when the model makes some attempts fail (`errorProb` > 0). */
export function hasFailures(m: ModelParams): boolean {
  return m.errorProb !== undefined && m.errorProb > 0;
}

/**
 * Whether attempt `attempt` (1-based) of call `call` fails. With probability `errorCorrelation` (drawn once
 * per call) the call's attempts share attempt 1's draw: all fail, or none — a failing dependency behind
 * every replica, which a hedge cannot escape. Absent `errorProb` draws nothing.
 */
export function attemptFails(m: ModelParams, seed: number, call: number, attempt: number): boolean {
  const p = m.errorProb;
  if (p === undefined || !(p > 0)) return false;
  const c = m.errorCorrelation ?? 0;
  const shared = c > 0 && attempt > 1 && (c >= 1 || uniform(seed, STREAM.errorCorrelation, call, 0) < c);
  return uniform(seed, STREAM.error, call, shared ? 1 : attempt) < p;
}

/** How long a failing attempt holds its worker, ms (in the model's clock: dilate the model first). */
export function errorHoldMs(m: ModelParams): number {
  return m.errorMs ?? DEFAULT_ERROR_MS;
}

/**
 * E[hold] in ms: what an attempt keeps a worker for on average, a failing one its errorMs instead of its
 * service draw. The load ρ = λ·E[hold]/workers stays "the utilisation without hedging"; without failures it
 * is E[S] exactly, so today's arrival rates are unchanged.
 */
export function meanHoldMs(m: ModelParams): number {
  const s = meanServiceMs(m);
  if (!hasFailures(m)) return s;
  const p = m.errorProb!;
  return (1 - p) * s + p * errorHoldMs(m);
}

/** The pushback a response carries when it leaves with `queueLength` attempts waiting, ms; 0 = none. */
export function pushbackMsAt(rule: PushbackRule | undefined, queueLength: number): number {
  return rule !== undefined && queueLength > rule.queueAbove ? rule.ms : 0;
}

/**
 * Whether a point's rows and call records count the hedges started because an attempt failed (points.csv
 * `hedged_on_error_rate`, calls.csv `hedged_on_error`): a configuration hedged by hedgebench's library whose
 * attempts can fail (the model's `errorProb`) or that hedges on a failure (`loneFailure: 'hedge-now'`).
 * Elsewhere the count is always 0 and the column stays out, so those files are as they were.
 */
export function countsHedgesOnError(config: HedgeConfig, model: ModelParams): boolean {
  const h = config.hedge;
  return h !== undefined && (hasFailures(model) || h.loneFailure === 'hedge-now');
}
