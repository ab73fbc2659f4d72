// BalancerPolicy: picks the replica each attempt goes to, innermost in a pipeline, knowing which replicas this
// call already used (a hedge to "another" replica). Randomness comes from an injected counter-based draw, so a
// simulation and a real run with the same draws send the same attempts to the same replicas.
import { ConfigError } from './errors.ts';
import type { CallState, Operation, Policy } from './operation.ts';
import { checkKnownKeys, checkNumber } from './validate.ts';

/** The ways to pick a replica. */
export const BALANCERS = ['random', 'round-robin', 'least-outstanding', 'two-choices'] as const;
/** A balancer name: `random`, `round-robin`, `least-outstanding` (fewest attempts in flight from this client),
 * `two-choices` (the less loaded of two random replicas, by this client's in-flight count). */
export type BalancerName = (typeof BALANCERS)[number];

/** Where a hedge may go: `other` = never to a replica this call already used (while one is left), `any`. */
export const HEDGE_TARGETS = ['other', 'any'] as const;
export type HedgeTarget = (typeof HEDGE_TARGETS)[number];

/**
 * A uniform draw in [0, 1) for (call index, attempt, k), k = 0 or 1 (two-choices takes two). It must be a
 * pure function of its arguments (a counter-based generator), never ambient randomness.
 */
export type BalancerDraw = (call: number, attempt: number, k: number) => number;

/** Most replicas a balancer spreads over. */
export const MAX_REPLICAS = 1024;

/** Options of the balancer policy. */
export interface BalancerPolicyOptions {
  /** Replicas 0..replicas−1 (integer 1..1024). */
  replicas: number;
  /** How to pick (default `random`). */
  strategy?: BalancerName;
  /** Where hedges go (default `other`). */
  hedgeTo?: HedgeTarget;
  /** The random source; required by every strategy but `round-robin` (which uses it for nothing). */
  draw?: BalancerDraw;
}

/**
 * Counters of a BalancerPolicy: per replica, attempts sent and attempts in flight from this client (the
 * latter counted only by the strategies that use it, least-outstanding and two-choices; zeros otherwise).
 */
export interface BalancerSnapshot {
  sent: number[];
  outstanding: number[];
}

const KNOWN = ['replicas', 'strategy', 'hedgeTo', 'draw'] as const;

/** Spreads attempts over replicas; writes each attempt's replica into `call.replicas[attempt]`. */
export class BalancerPolicy implements Policy {
  readonly replicas: number;
  readonly strategy: BalancerName;
  readonly hedgeTo: HedgeTarget;
  private readonly draw: BalancerDraw;
  /** True for the strategies that look at the attempts in flight (least-outstanding, two-choices). */
  readonly countsOutstanding: boolean;
  /** @internal attempts in flight per replica (sent, not yet answered or cancelled); counted only when countsOutstanding. */
  readonly outstanding: Int32Array;
  /** @internal attempts sent per replica. */
  readonly sent: Float64Array;
  // Candidate replicas of the current pick (no allocation per attempt).
  private readonly candidates: Int32Array;
  private nextRobin = 0;

  constructor(options: BalancerPolicyOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ConfigError(
        'balancer',
        options,
        'must be an object { replicas, strategy?, hedgeTo?, draw? }',
      );
    }
    checkKnownKeys('balancer', options, KNOWN);
    const replicas = checkNumber('balancer.replicas', options.replicas, 1, MAX_REPLICAS, true);
    if (replicas === undefined) throw new ConfigError('balancer.replicas', undefined, 'is required');
    const strategy = options.strategy ?? 'random';
    if (!BALANCERS.includes(strategy)) {
      throw new ConfigError('balancer.strategy', strategy, `must be one of ${BALANCERS.join(', ')}`);
    }
    const hedgeTo = options.hedgeTo ?? 'other';
    if (!HEDGE_TARGETS.includes(hedgeTo)) {
      throw new ConfigError('balancer.hedgeTo', hedgeTo, `must be one of ${HEDGE_TARGETS.join(', ')}`);
    }
    if (options.draw !== undefined && typeof options.draw !== 'function') {
      throw new ConfigError('balancer.draw', options.draw, 'must be a function (call, attempt, k) => [0, 1)');
    }
    if (options.draw === undefined && strategy !== 'round-robin') {
      throw new ConfigError(
        'balancer.draw',
        undefined,
        `is required by strategy ${strategy}: pass a counter-based (call, attempt, k) => [0, 1)`,
      );
    }
    this.replicas = replicas;
    this.strategy = strategy;
    this.hedgeTo = hedgeTo;
    this.draw = options.draw ?? (() => 0);
    this.countsOutstanding = strategy === 'least-outstanding' || strategy === 'two-choices';
    this.outstanding = new Int32Array(replicas);
    this.sent = new Float64Array(replicas);
    this.candidates = new Int32Array(replicas);
  }

  /** Wraps an operation: each attempt goes to one replica, recorded in `call.replicas[attempt]`. */
  wrap<T>(inner: Operation<T>): Operation<T> {
    if (!this.countsOutstanding) {
      // random and round-robin never look at the load: no per-attempt bookkeeping (the simulator's hot path).
      return (call, attempt, done) => {
        const r = this.pick(call.call, attempt, call.replicas);
        record(call, attempt, r);
        this.sent[r]++;
        return inner(call, attempt, done);
      };
    }
    return (call, attempt, done) => {
      const r = this.pick(call.call, attempt, call.replicas);
      record(call, attempt, r);
      this.outstanding[r]++;
      this.sent[r]++;
      let live = true;
      const cancel = inner(call, attempt, (o) => {
        if (!live) return;
        live = false;
        this.outstanding[r]--;
        done(o);
      });
      return (reason) => {
        if (!live) return;
        live = false;
        this.outstanding[r]--;
        cancel(reason);
      };
    };
  }

  /** Current counters (copies). */
  snapshot(): BalancerSnapshot {
    return { sent: Array.from(this.sent), outstanding: Array.from(this.outstanding) };
  }

  // The replica for attempt `attempt` of call `call`, given the replicas its earlier attempts went to.
  private pick(call: number, attempt: number, used: number[] | undefined): number {
    const R = this.replicas;
    if (R === 1) return 0;
    // A first attempt (or hedgeTo any) may go anywhere: random needs no candidate list.
    const free = this.hedgeTo === 'any' || used === undefined || attempt === 1;
    if (free && this.strategy === 'random') return Math.floor(this.draw(call, attempt, 0) * R);
    const c = this.candidates;
    let n = 0;
    if (!free) {
      for (let r = 0; r < R; r++) {
        let taken = false;
        for (let k = 1; k < attempt; k++) if (used[k] === r) taken = true;
        if (!taken) c[n++] = r;
      }
    }
    // Every replica already serves this call (more attempts than replicas): any will do.
    if (n === 0) for (let r = 0; r < R; r++) c[n++] = r;
    switch (this.strategy) {
      case 'random':
        return c[Math.floor(this.draw(call, attempt, 0) * n)];
      case 'round-robin':
        return this.robin(n);
      case 'least-outstanding':
        return this.leastOutstanding(call, attempt, n);
      default:
        return this.twoChoices(call, attempt, n);
    }
  }

  // The first candidate at or after the rotation's position; the rotation moves past it.
  private robin(n: number): number {
    const c = this.candidates;
    let best = c[0];
    for (let i = 0; i < n; i++) {
      if (c[i] >= this.nextRobin) {
        best = c[i];
        break;
      }
    }
    this.nextRobin = (best + 1) % this.replicas;
    return best;
  }

  // Fewest in flight; ties broken by the draw (a fixed order would pile every idle-time attempt on replica 0).
  private leastOutstanding(call: number, attempt: number, n: number): number {
    const c = this.candidates;
    const out = this.outstanding;
    let min = Number.POSITIVE_INFINITY;
    let ties = 0;
    for (let i = 0; i < n; i++) {
      const o = out[c[i]];
      if (o < min) {
        min = o;
        ties = 0;
      }
      if (o === min) c[ties++] = c[i];
    }
    return c[Math.floor(this.draw(call, attempt, 0) * ties)];
  }

  // Two distinct random candidates; the one with fewer in flight (the first on a tie).
  private twoChoices(call: number, attempt: number, n: number): number {
    const c = this.candidates;
    const a = Math.floor(this.draw(call, attempt, 0) * n);
    if (n === 1) return c[a];
    let b = Math.floor(this.draw(call, attempt, 1) * (n - 1));
    if (b >= a) b++;
    return this.outstanding[c[b]] < this.outstanding[c[a]] ? c[b] : c[a];
  }
}

// Attempts arrive in order, so each one appends; a first attempt makes a packed two-slot array at once (an
// empty array written at index 1 would grow a holey backing store per call).
function record(call: CallState, attempt: number, r: number): void {
  const rs = call.replicas;
  if (rs === undefined) call.replicas = attempt === 1 ? [-1, r] : fill(attempt, r);
  else rs[attempt] = r;
}

function fill(attempt: number, r: number): number[] {
  const rs = new Array<number>(attempt + 1).fill(-1);
  rs[attempt] = r;
  return rs;
}

/** Makes a BalancerPolicy (see BalancerPolicyOptions for the defaults). */
export function balancer(options: BalancerPolicyOptions): BalancerPolicy {
  return new BalancerPolicy(options);
}
