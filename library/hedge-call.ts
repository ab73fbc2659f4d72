// One hedged call: starts attempts, arms the hedge timer, applies hedgeOn/abortOn, the winner rule, the
// budget and the deadline, picks the winner and cancels the losers; with the optional rules, reports every
// attempt's end to the policy. Synchronous; `done` of an attempt may arrive re-entrantly.
import type { TimerHandle } from './clock.ts';
import { AdaptiveLimitFullError, DeadlineExceededError } from './errors.ts';
import type { HedgePolicy } from './hedge.ts';
import type { CallState, Cancel, Operation, Outcome } from './operation.ts';

/** The state machine of one call through a HedgePolicy. */
export class HedgeCall<T> {
  private started = 0;
  /** Bit n set = attempt n is running. */
  private running = 0;
  private readonly cancels: (Cancel | undefined)[] = [];
  private settled = false;
  private stopped = false;
  private lastStart = 0;
  private deadlineAt = Number.POSITIVE_INFINITY;
  private timer: TimerHandle | undefined = undefined;
  private deadlineTimer: TimerHandle | undefined = undefined;
  private lastError: unknown = undefined;
  /** Bit n set = attempt n was cancelled while its operation was still starting (no canceller yet). */
  private orphans = 0;
  private orphanReason: unknown = undefined;
  /** Start time of each attempt, kept only when the policy records latencies (percentile delay). */
  private starts: number[] | undefined = undefined;

  constructor(
    private readonly p: HedgePolicy,
    private readonly inner: Operation<T>,
    private readonly state: CallState,
    private readonly done: (o: Outcome<T>) => void,
  ) {}

  /** Starts the call (deposit, deadline, first attempt); returns the caller's canceller. */
  start(): Cancel {
    const p = this.p;
    const now = p.clock.now();
    p.c.calls++;
    p.c.active++;
    p.budget?.deposit(now);
    const deadlineMs = p.settings.deadlineMs;
    if (deadlineMs !== undefined) {
      this.deadlineAt = now + deadlineMs;
      this.deadlineTimer = p.clock.setTimer(() => this.onDeadline(), deadlineMs);
    }
    this.launch(1);
    // Closures are made inline and anonymous: per-call named functions cost a defineProperty each under
    // bundlers' keepNames (tsx), many times slower on this path (docs/library.md, "Performance notes").
    return (reason) => this.cancel(reason);
  }

  /** The caller gave up: cancel every running attempt with its reason; `done` is not called. */
  private cancel(reason: unknown): void {
    if (this.settled) return;
    this.p.c.cancelled++;
    this.settle(reason);
  }

  private onTimer(): void {
    this.timer = undefined;
    if (this.settled) return;
    if (!this.tryHedge(false) && this.running === 0) this.fail();
  }

  private onDeadline(): void {
    this.deadlineTimer = undefined;
    if (this.settled) return;
    const error = new DeadlineExceededError(this.p.settings.deadlineMs!);
    this.p.c.deadlineExceeded++;
    this.lastError = error;
    this.fail(error);
  }

  private launch(k: number): void {
    this.started = k;
    this.running |= 1 << k;
    this.lastStart = this.p.clock.now();
    if (this.p.delayRule !== undefined) {
      if (this.starts === undefined) this.starts = [];
      this.starts[k] = this.lastStart;
    }
    if (this.timer !== undefined) {
      this.timer.cancel();
      this.timer = undefined;
    }
    const cancel = this.inner(this.state, k, (o) => this.onDone(k, o));
    if (this.running & (1 << k)) this.cancels[k] = cancel;
    else if (this.orphans & (1 << k)) {
      this.orphans &= ~(1 << k);
      cancel(this.orphanReason);
    }
    if (!this.settled && this.timer === undefined) this.arm();
  }

  // Schedules the next hedge a delay after the most recent start, if one may still start: the fixed delayMs,
  // or the percentile rule's delay in force now (Infinity = no timed hedge: until 'none', too few samples).
  private arm(): void {
    const p = this.p;
    if (this.stopped || this.started >= p.settings.maxAttempts) return;
    const now = p.clock.now();
    const rule = p.delayRule;
    const delayMs = rule === undefined ? p.settings.delayMs : rule.delayAt(now);
    if (delayMs === Number.POSITIVE_INFINITY) return;
    const delay = this.lastStart + delayMs - now;
    this.timer = p.clock.setTimer(() => this.onTimer(), delay);
  }

  // Starts the next attempt if the deadline and the budget allow it; otherwise stops hedging this call.
  // `onError`: it was asked for because an attempt failed, not because the delay elapsed.
  private tryHedge(onError: boolean): boolean {
    const p = this.p;
    if (this.stopped || this.started >= p.settings.maxAttempts) return false;
    const next = this.started + 1;
    const now = p.clock.now();
    if (this.deadlineAt - now < p.settings.minRemainingMs) {
      this.stopped = true;
      p.c.deadlineSkipped++;
      return false;
    }
    if (p.ext ? !p.allowHedge(now) : p.budget !== undefined && !p.budget.tryWithdraw(now)) {
      this.stopped = true;
      this.state.skipped++;
      p.c.skipped++;
      const ls = p.skippedListeners;
      for (let i = 0; i < ls.length; i++) ls[i](this.state, next);
      return false;
    }
    p.c.hedges++;
    if (onError) {
      p.c.hedgedOnError++;
      this.state.hedgedOnError++;
    }
    const ls = p.hedgedListeners;
    for (let i = 0; i < ls.length; i++) ls[i](this.state, next);
    this.launch(next);
    return true;
  }

  private onDone(k: number, o: Outcome<T>): void {
    const bit = 1 << k;
    if (this.settled || (this.running & bit) === 0) return;
    this.running &= ~bit;
    this.cancels[k] = undefined;
    const p = this.p;
    if (p.ext) this.ended(k, o);
    if (o.ok) {
      this.win(k, o);
      return;
    }
    const error = o.error;
    this.lastError = error;
    if (error instanceof AdaptiveLimitFullError) {
      // A refused hedge has spent its budget; it starts no further attempts. A refused first attempt ends the call.
      // Never sent, so not a completion either: first-completion waits for the attempts that were.
      this.stopped = true;
    } else if (p.firstCompletion || p.abortOn?.(error)) {
      this.fail();
      return;
    } else if (p.hedgeOn?.(error) || (p.hedgeOnLoneFailure && this.running === 0)) {
      if (this.tryHedge(true)) return;
    }
    if (this.running === 0 && (this.timer === undefined || this.stopped)) this.fail();
  }

  // Attempt k left the running set (o undefined = cancelled): feed the optional rules. The percentile sees
  // every attempt that was sent, won, lost, failed or cancelled, at the time it ended; a refusal by the
  // adaptive limit was never sent, so it is neither a latency nor a failure.
  private ended(k: number, o: Outcome<T> | undefined): void {
    const p = this.p;
    const now = p.clock.now();
    const refused = o !== undefined && !o.ok && o.error instanceof AdaptiveLimitFullError;
    if (p.delayRule !== undefined && !refused) p.delayRule.record(now, now - this.starts![k]);
    if (k > 1 && p.concurrency !== undefined) p.concurrency.release();
    if (o === undefined) return;
    if (!o.ok && !refused) p.tokens?.failed();
    const pushbackMs = o.pushbackMs;
    // NaN, ≤ 0 and Infinity are not a pushback a server can mean: ignored.
    if (
      p.honoursPushback &&
      pushbackMs !== undefined &&
      pushbackMs > 0 &&
      pushbackMs !== Number.POSITIVE_INFINITY
    ) {
      if (now + pushbackMs > p.pushbackUntil) p.pushbackUntil = now + pushbackMs;
    }
  }

  private win(k: number, o: Outcome<T>): void {
    const p = this.p;
    this.state.winner = k;
    p.c.won++;
    p.wonByAttempt[k]++;
    if (p.ext) p.tokens?.succeeded();
    this.settle(p.lostReason);
    const ls = p.wonListeners;
    for (let i = 0; i < ls.length; i++) ls[i](this.state, k);
    this.done(o);
  }

  private fail(error: unknown = this.lastError): void {
    const p = this.p;
    p.c.failed++;
    if (error instanceof AdaptiveLimitFullError) {
      this.state.rejected = true;
      p.c.rejected++;
    }
    this.settle(error instanceof DeadlineExceededError ? error : p.endedReason);
    const ls = p.failedListeners;
    for (let i = 0; i < ls.length; i++) ls[i](this.state, error);
    this.done({ ok: false, error });
  }

  // Ends the call: no more timers, every running attempt cancelled with `reason`.
  private settle(reason: unknown): void {
    this.settled = true;
    this.p.c.active--;
    if (this.timer !== undefined) {
      this.timer.cancel();
      this.timer = undefined;
    }
    if (this.deadlineTimer !== undefined) {
      this.deadlineTimer.cancel();
      this.deadlineTimer = undefined;
    }
    let running = this.running;
    this.running = 0;
    for (let k = 1; running !== 0; k++) {
      if (running & (1 << k)) {
        running &= ~(1 << k);
        if (this.p.ext) this.ended(k, undefined);
        const cancel = this.cancels[k];
        this.cancels[k] = undefined;
        if (cancel !== undefined) cancel(reason);
        else {
          // Its operation has not returned its canceller yet: launch() cancels it when it does.
          this.orphans |= 1 << k;
          this.orphanReason = reason;
        }
      }
    }
  }
}
