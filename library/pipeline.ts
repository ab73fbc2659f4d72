// Pipeline: composes policies (first added = outermost) around an operation, and offers the Promise facade
// `execute` for real use. Both entry points run the same synchronous core.
import { AdaptiveLimitPolicy, type AdaptiveLimitPolicyOptions } from './adaptive-limit.ts';
import { BalancerPolicy, type BalancerPolicyOptions } from './balancer.ts';
import type { Clock } from './clock.ts';
import { AdaptiveLimitFullError, CancelledError } from './errors.ts';
import { HedgePolicy } from './hedge.ts';
import type { HedgePolicyOptions } from './hedge-options.ts';
import { type CallState, NO_CANCEL, newCallState, type Operation, type Policy } from './operation.ts';

/** What an attempt function receives from execute(). */
export interface AttemptContext {
  /** Aborted when the attempt loses, the call's deadline passes or the caller aborts. */
  signal: AbortSignal;
  /** 1-based attempt number within the call. */
  attempt: number;
  /** The call index. */
  call: number;
}

/** Options of one execute(). */
export interface ExecuteOptions {
  /** The caller's abort: cancels every attempt with its reason and rejects with it. */
  signal?: AbortSignal;
  /** Call index (default: a counter of this pipeline). */
  call?: number;
  /** A CallState to fill in (default: a fresh one); read it afterwards for attempts, winner … */
  state?: CallState;
}

/** Hedge options without the clock (the pipeline supplies it). */
export type HedgeStepOptions = Omit<HedgePolicyOptions, 'clock'>;
/** Adaptive-limit options without the clock (the pipeline supplies it). */
export type AdaptiveLimitStepOptions = Omit<AdaptiveLimitPolicyOptions, 'clock'>;

/** A chain of policies on one clock; the builder methods return the same object, which is the Pipeline. */
export class Pipeline {
  readonly clock: Clock;
  /** The first hedge policy added (for snapshots and events). */
  hedgePolicy?: HedgePolicy;
  /** The first adaptive-limit policy added (for snapshots and events). */
  limitPolicy?: AdaptiveLimitPolicy;
  /** The first balancer added (for snapshots). */
  balancerPolicy?: BalancerPolicy;
  private readonly policies: Policy[] = [];
  private nextCall = 0;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Adds a HedgePolicy on this pipeline's clock; returns the pipeline. */
  hedge(options: HedgeStepOptions = {}): this {
    const policy = new HedgePolicy({ ...options, clock: this.clock });
    this.hedgePolicy ??= policy;
    this.policies.push(policy);
    return this;
  }

  /** Adds an AdaptiveLimitPolicy (Gradient2) on this pipeline's clock; returns the pipeline. */
  adaptiveLimit(options: AdaptiveLimitStepOptions = {}): this {
    const policy = new AdaptiveLimitPolicy({ ...options, clock: this.clock });
    this.limitPolicy ??= policy;
    this.policies.push(policy);
    return this;
  }

  /** Adds a BalancerPolicy (add it last: it picks the replica of each attempt that reaches it); returns the pipeline. */
  balance(options: BalancerPolicyOptions): this {
    const policy = new BalancerPolicy(options);
    this.balancerPolicy ??= policy;
    this.policies.push(policy);
    return this;
  }

  /** Adds any policy; returns the pipeline. */
  use(policy: Policy): this {
    this.policies.push(policy);
    return this;
  }

  /** The policies, outermost first. */
  get steps(): readonly Policy[] {
    return this.policies;
  }

  /** A fresh CallState for call index `call`. */
  newCall(call: number): CallState {
    return newCallState(call);
  }

  /**
   * Wraps `op` in the policies once; run many calls with `run(pipeline.newCall(i), 1, done)`.
   * The result keeps CallState up to date: attempts reaching `op`, winner, rejected.
   */
  compose<T>(op: Operation<T>): Operation<T> {
    let run: Operation<T> = (call, attempt, done) => {
      if (attempt > call.attempts) call.attempts = attempt;
      return op(call, attempt, done);
    };
    for (let i = this.policies.length - 1; i >= 0; i--) run = this.policies[i].wrap(run);
    if (this.policies[0] instanceof HedgePolicy) return run;
    // Without a hedge outermost, nobody else records the winner or a rejection.
    const inner = run;
    return (call, attempt, done) =>
      inner(call, attempt, (o) => {
        if (o.ok) {
          if (call.winner === 0) call.winner = attempt;
        } else if (o.error instanceof AdaptiveLimitFullError) call.rejected = true;
        done(o);
      });
  }

  /** The Promise facade: runs `fn` per attempt through the policies; resolves with the winning value. */
  execute<T>(fn: (ctx: AttemptContext) => Promise<T>, options: ExecuteOptions = {}): Promise<T> {
    const signal = options.signal;
    const state = options.state ?? this.newCall(options.call ?? this.nextCall++);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const run = this.compose(promiseOperation(fn));
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const onAbort = (): void => {
        if (settled) return;
        settled = true;
        signal!.removeEventListener('abort', onAbort);
        cancel(signal!.reason);
        reject(signal!.reason);
      };
      const cancel = run(state, 1, (o) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        if (o.ok) resolve(o.value);
        else reject(o.error);
      });
      if (!settled) signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** Starts a pipeline on `clock`; add policies with .hedge() / .adaptiveLimit(), first = outermost. */
export function pipeline(clock: Clock): Pipeline {
  return new Pipeline(clock);
}

/** Adapts a promise-returning attempt function to the synchronous core (one AbortController per attempt). */
function promiseOperation<T>(fn: (ctx: AttemptContext) => Promise<T>): Operation<T> {
  return (call, attempt, done) => {
    const controller = new AbortController();
    let live = true;
    let promise: Promise<T>;
    try {
      promise = fn({ signal: controller.signal, attempt, call: call.call });
    } catch (error) {
      done({ ok: false, error });
      return NO_CANCEL;
    }
    Promise.resolve(promise).then(
      (value) => {
        if (!live) return;
        live = false;
        done({ ok: true, value });
      },
      (error: unknown) => {
        if (!live) return;
        live = false;
        done({ ok: false, error });
      },
    );
    return (reason) => {
      if (!live) return;
      live = false;
      controller.abort(reason ?? new CancelledError());
    };
  };
}
