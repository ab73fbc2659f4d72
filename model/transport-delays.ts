// The transport between client and server: a delay for the request's trip, the response's trip and the
// cancellation's own trip to the server, each drawn from a distribution. Draws are counter-based, a pure
// function of (seed, call, attempt, direction), so a simulation with a transport stays deterministic and
// two transports see the same uniforms for the same attempt.

import { percentileRank } from '../library/index.ts';
import { TransportInvalidError, TransportSamplesError } from './errors.ts';
import { keyLanes, OPEN_OFFSET, STREAM, streamUniform } from './rng.ts';
import { describeReplay, peerReplayKey, replayKey, type TransportReplay } from './transport-replay.ts';

/** A delay distribution, ms. */
export type DelayDistribution =
  | { kind: 'constant'; ms: number }
  | { kind: 'lognormal'; medianMs: number; sigma: number }
  /** Resampled with replacement; `samplesMs` ascending (empiricalDelay sorts), so order never matters. */
  | { kind: 'empirical'; samplesMs: Float64Array };

/** One distribution per direction. The cancellation travels client → server, after the request. */
export interface TransportParams {
  request: DelayDistribution;
  response: DelayDistribution;
  cancel: DelayDistribution;
  /** A point's measured trips, taken before any draw (request, response, peer cancel); absent: draws only. */
  replay?: TransportReplay;
}

/** Which trip a delay is for. */
type Direction = 'request' | 'response' | 'cancel';

/** Fewer samples than this describe no tail: an empirical delay refuses them. */
const MIN_EMPIRICAL_SAMPLES = 100;

/** A constant delay of `ms` on every trip (the simplest transport: a fixed network). */
export function constantTransport(ms: number): TransportParams {
  const d: DelayDistribution = { kind: 'constant', ms };
  validateDelay(d, 'constant transport');
  return { request: d, response: d, cancel: d };
}

/**
 * An empirical delay from measured samples (ms). Refuses fewer than MIN_EMPIRICAL_SAMPLES, and any
 * negative or non-finite sample; `what` names the samples' origin in the message.
 */
export function empiricalDelay(samples: ArrayLike<number>, what = 'empirical delay'): DelayDistribution {
  if (samples.length < MIN_EMPIRICAL_SAMPLES) {
    throw new TransportSamplesError(
      `${what}: ${samples.length} samples, at least ${MIN_EMPIRICAL_SAMPLES} are needed to describe a delay's tail; measure more calls (a longer calibration point) or use a constant or log-normal delay`,
      samples.length,
    );
  }
  const d: DelayDistribution = { kind: 'empirical', samplesMs: Float64Array.from(samples).sort() };
  validateDelay(d, what);
  return d;
}

/** Checks a distribution's parameters (throws TransportInvalidError naming the field and the fix). */
function validateDelay(d: DelayDistribution, what: string): void {
  const bad = (field: string, v: unknown, need: string) =>
    new TransportInvalidError(`${what}: ${field} is ${String(v)}; it must be ${need}`);
  if (d.kind === 'constant') {
    if (!(Number.isFinite(d.ms) && d.ms >= 0)) throw bad('ms', d.ms, 'a finite number ≥ 0');
  } else if (d.kind === 'lognormal') {
    if (!(Number.isFinite(d.medianMs) && d.medianMs > 0)) throw bad('medianMs', d.medianMs, 'a number > 0');
    if (!(Number.isFinite(d.sigma) && d.sigma >= 0)) throw bad('sigma', d.sigma, 'a finite number ≥ 0');
  } else {
    const n = d.samplesMs.length;
    if (n < MIN_EMPIRICAL_SAMPLES) {
      throw new TransportSamplesError(
        `${what}: ${n} samples, at least ${MIN_EMPIRICAL_SAMPLES} are needed`,
        n,
      );
    }
    for (let i = 0; i < n; i++) {
      const v = d.samplesMs[i];
      if (!(Number.isFinite(v) && v >= 0)) throw bad(`samplesMs[${i}]`, v, 'a finite delay ≥ 0 ms');
    }
  }
}

/** Checks every direction of a transport. */
export function validateTransport(t: TransportParams): void {
  for (const dir of ['request', 'response', 'cancel'] as const) {
    if (t[dir] === undefined) throw new TransportInvalidError(`transport: the ${dir} delay is missing`);
    validateDelay(t[dir], `transport ${dir} delay`);
  }
  if (t.replay === undefined) return;
  for (const part of ['request', 'response', 'cancel', 'peerCancel'] as const) {
    for (const [key, ms] of t.replay[part]) {
      if (!(Number.isFinite(ms) && ms >= 0))
        throw new TransportInvalidError(
          `transport replay: the ${part} trip of key ${key} is ${ms} ms; a replayed trip must be a finite delay ≥ 0 ms`,
        );
    }
  }
  for (const [key, r] of t.replay.replica) {
    if (!(Number.isInteger(r) && r >= 0))
      throw new TransportInvalidError(
        `transport replay: the replica of key ${key} is ${r}; a replayed replica must be a whole number ≥ 0`,
      );
  }
  // A hold may read a hair shorter than intended: the records' times are rounded to µs.
  for (const [key, ms] of t.replay.overshoot) {
    if (!Number.isFinite(ms))
      throw new TransportInvalidError(
        `transport replay: the hold overshoot of key ${key} is ${ms} ms; a replayed overshoot must be a finite number of ms`,
      );
  }
}

const STREAMS: Readonly<Record<Direction, readonly [number, number]>> = {
  request: [STREAM.requestA, STREAM.requestB],
  response: [STREAM.responseA, STREAM.responseB],
  cancel: [STREAM.cancelA, STREAM.cancelB],
};
const TWO_PI = 2 * Math.PI;
const lanes = new Int32Array(2);

/** The delay (ms) of `dir`'s trip for attempt `attempt` of call `call`: a pure function of its arguments. */
export function transportDelayMs(
  t: TransportParams,
  dir: Direction,
  seed: number,
  call: number,
  attempt: number,
): number {
  if (t.replay !== undefined) {
    const ms = t.replay[dir].get(replayKey(call, attempt));
    if (ms !== undefined) return ms;
  }
  const [a, b] = STREAMS[dir];
  return drawDelay(t[dir], a, b, seed, call, attempt);
}

/**
 * The delay (ms) of a tied call's peer cancel from the server of copy `from` to the server of copy `to`
 * (model/tied.ts): one message between servers, so it takes what a request's trip takes — the request
 * direction's distribution (a run's calibration point measures it) — on streams of its own.
 */
export function peerCancelDelayMs(
  t: TransportParams,
  seed: number,
  call: number,
  from: number,
  to: number,
): number {
  const ms = t.replay?.peerCancel.get(peerReplayKey(call, from, to));
  if (ms !== undefined) return ms;
  // Copies are numbered 1..10: from × 16 + to names each ordered pair of a call once.
  return drawDelay(t.request, STREAM.peerCancelA, STREAM.peerCancelB, seed, call, from * 16 + to);
}

/** The replica attempt `attempt` of call `call` goes to: the replay's, else the balancer's pick (`picked`). */
export function replayedReplica(
  t: TransportParams | undefined,
  call: number,
  attempt: number,
  picked: number,
): number {
  return t?.replay?.replica.get(replayKey(call, attempt)) ?? picked;
}

/** How much longer than its service draw attempt `attempt` of call `call` holds its worker: replayed, else 0. */
export function holdOvershootMs(t: TransportParams, call: number, attempt: number): number {
  return t.replay?.overshoot.get(replayKey(call, attempt)) ?? 0;
}

// One draw of `d` for the key (seed, call, attempt) on streams a and b (b: the Box–Muller angle).
function drawDelay(
  d: DelayDistribution,
  a: number,
  b: number,
  seed: number,
  call: number,
  attempt: number,
): number {
  if (d.kind === 'constant') return d.ms;
  keyLanes(seed, call, attempt, lanes);
  if (d.kind === 'empirical') {
    const s = d.samplesMs;
    return s[Math.floor(streamUniform(lanes, a) * s.length)];
  }
  // Box–Muller, as the service time draws its log-normal body.
  const r = Math.sqrt(-2 * Math.log(streamUniform(lanes, a) + OPEN_OFFSET));
  return d.medianMs * Math.exp(d.sigma * r * Math.cos(TWO_PI * streamUniform(lanes, b)));
}

/** One line naming a transport (the report and notes print it). */
export function describeTransport(t: TransportParams): string {
  const one = (d: DelayDistribution): string => {
    if (d.kind === 'constant') return `constant ${d.ms} ms`;
    if (d.kind === 'lognormal') return `log-normal (median ${d.medianMs} ms, sigma ${d.sigma})`;
    const s = d.samplesMs;
    const q = (p: number) => s[percentileRank(s.length, p) - 1].toFixed(3);
    return `empirical (${s.length} samples; p50 ${q(50)} ms, p99 ${q(99)} ms)`;
  };
  const replayed = t.replay === undefined ? '' : `; ${describeReplay(t.replay)}, the rest drawn`;
  return `request ${one(t.request)}; response ${one(t.response)}; cancellation ${one(t.cancel)}${replayed}`;
}
