// Test helper: a fixed pseudo-random workload through a hedge (+ adaptive limit) pipeline that touches every
// path of a HedgePolicy (budget refusals, failures, hedgeOn, abortOn, deadlines, caller cancels, the limit),
// written as one log line per event. It takes the library as a parameter so the same workload can be run
// against an older copy of library/ to pin today's behaviour (test/library/defaults.test.ts).
import type * as Library from '../../library/index.ts';

type Lib = Pick<typeof Library, 'ManualClock' | 'pipeline'>;

/** Tiny LCG: deterministic draws without Math.random. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Runs `calls` calls with hedge options `hedge` (merged over a base set) and returns the event log. */
export function runWorkload(lib: Lib, hedge: Record<string, unknown>, calls = 3000, seed = 7): string[] {
  const clock = new lib.ManualClock();
  const p = lib
    .pipeline(clock)
    .hedge({
      delayMs: 15,
      maxAttempts: 3,
      budgetPercent: 8,
      budgetMinHedgesPerSecond: 1,
      budgetWindowMs: 2000,
      deadlineMs: 120,
      minRemainingMs: 95,
      hedgeOn: (e) => e === 'busy',
      abortOn: (e) => e === 'fatal',
      ...hedge,
    })
    .adaptiveLimit({ initialLimit: 12, minLimit: 4, maxLimit: 40, windowMs: 200, windowMinSamples: 5 });
  const hp = p.hedgePolicy!;
  const log: string[] = [];
  const t = () => clock.now().toFixed(6);
  hp.onHedged((s, a) => log.push(`${t()} hedged ${s.call}.${a}`));
  hp.onSkipped((s, a) => log.push(`${t()} skipped ${s.call}.${a}`));
  hp.onWon((s, a) => log.push(`${t()} won ${s.call}.${a}`));
  hp.onFailed((s, e) => log.push(`${t()} failed ${s.call} ${String(e)}`));
  const rnd = lcg(seed);
  const run = p.compose<number>((state, attempt, done) => {
    const r = rnd();
    const ms = r < 0.06 ? 60 + rnd() * 80 : 2 + rnd() * 12;
    const f = rnd();
    const error = f < 0.05 ? 'busy' : f < 0.08 ? 'other' : f < 0.09 ? 'fatal' : undefined;
    log.push(`${t()} start ${state.call}.${attempt}`);
    const h = clock.setTimer(() => {
      log.push(`${t()} end ${state.call}.${attempt} ${error ?? 'ok'}`);
      done(error === undefined ? { ok: true, value: attempt } : { ok: false, error });
    }, ms);
    return (reason) => {
      log.push(`${t()} cancel ${state.call}.${attempt} ${String(reason)}`);
      h.cancel();
    };
  });
  let i = 0;
  const arrive = () => {
    const state = p.newCall(i);
    const abortAt = rnd() < 0.03 ? rnd() * 50 : undefined;
    let ended = false;
    const cancel = run(state, 1, (o) => {
      ended = true;
      log.push(
        `${t()} done ${state.call} ${o.ok ? 'ok' : String((o as { error: unknown }).error)} a=${state.attempts} w=${state.winner} s=${state.skipped} l=${state.limited} r=${state.rejected}`,
      );
    });
    if (abortAt !== undefined) {
      clock.setTimer(() => {
        if (!ended) cancel(new Error('caller abort'));
      }, abortAt);
    }
    if (++i < calls) clock.setTimer(arrive, rnd() * 2.5);
  };
  arrive();
  clock.runAll();
  const s = hp.snapshot();
  log.push(
    `snapshot calls=${s.calls} hedges=${s.hedges} skipped=${s.skipped} deadlineSkipped=${s.deadlineSkipped} won=${s.won} failed=${s.failed} rejected=${s.rejected} deadlineExceeded=${s.deadlineExceeded} cancelled=${s.cancelled} active=${s.active} pending=${clock.pending()}`,
  );
  return log;
}

/** FNV-1a over the joined log: a short fingerprint to pin a long trace. */
export function digest(lines: readonly string[]): string {
  let h = 0x811c9dc5;
  for (const line of lines) {
    for (let i = 0; i < line.length; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ 10, 0x01000193) >>> 0;
  }
  return `${lines.length}:${h.toString(16).padStart(8, '0')}`;
}
