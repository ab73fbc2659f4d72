// SystemClock on real time: timers fire in deadline order (ties in scheduling order), never before their
// deadline, cancel works, and nothing is left pending. No lateness thresholds here (see bench/).
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock, type SystemClockOptions } from '../../runtime/index.ts';

// Every clock a test makes is closed afterwards (thread wakers own a worker thread).
const made: SystemClock[] = [];
function make(opts: SystemClockOptions): SystemClock {
  const c = new SystemClock(opts);
  made.push(c);
  return c;
}
afterEach(async () => {
  for (const c of made.splice(0)) await c.close();
});

// Resolves when no timer is pending; rejects if some never fires (a stuck heap), instead of hanging.
function settle(clock: SystemClock, timeoutMs = 5_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (clock.stats().pending === 0) resolve();
      else if (performance.now() > end) reject(new Error(`${clock.stats().pending} timers never fired`));
      else setTimeout(check, 5);
    };
    check();
  });
}

describe.each<SystemClockOptions>([{ waker: 'thread' }, { waker: 'poll', leadMs: 2 }])(
  'SystemClock %o',
  (opts) => {
    it('now() is monotonic performance time', () => {
      const clock = make(opts);
      const a = clock.now();
      const p = performance.now();
      const b = clock.now();
      expect(a).toBeLessThanOrEqual(p);
      expect(p).toBeLessThanOrEqual(b);
    });

    it('fires hundreds of outstanding timers in deadline order and never early', async () => {
      const clock = make(opts);
      const fired: { i: number; deadline: number; at: number }[] = [];
      // Deterministic spread of delays 0..40 ms, scheduled in scrambled order.
      for (let k = 0; k < 400; k++) {
        const delay = ((k * 37) % 400) / 10;
        let deadline = 0;
        deadline = clock.setTimer(() => fired.push({ i: k, deadline, at: clock.now() }), delay).deadline;
      }
      await settle(clock);
      expect(fired).toHaveLength(400);
      for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(f.deadline);
      for (let j = 1; j < fired.length; j++) {
        expect(fired[j]!.deadline).toBeGreaterThanOrEqual(fired[j - 1]!.deadline);
      }
      expect(clock.stats()).toMatchObject({ pending: 0, fired: 400 });
    });

    it('fires in (deadline, scheduling order) order', async () => {
      const clock = make(opts);
      const order: number[] = [];
      const deadlines: number[] = [];
      for (let k = 0; k < 50; k++) deadlines.push(clock.setTimer(() => order.push(k), 3).deadline);
      for (let k = 50; k < 60; k++) deadlines.push(clock.setTimer(() => order.push(k), 0).deadline);
      await settle(clock);
      const expected = deadlines.map((d, k) => ({ d, k })).sort((a, b) => a.d - b.d || a.k - b.k);
      expect(order).toEqual(expected.map((e) => e.k));
    });

    it('never fires early with leadMs 0 (plain setTimeout path) either', async () => {
      const clock = make({ waker: 'poll', leadMs: 0 });
      const early: number[] = [];
      for (let k = 0; k < 100; k++) {
        const delay = 1 + (k % 10) * 0.7;
        const before = clock.now();
        const { deadline } = clock.setTimer(() => {
          const at = clock.now();
          if (at < deadline) early.push(deadline - at);
        }, delay);
        expect(deadline).toBeGreaterThanOrEqual(before + delay);
      }
      await settle(clock);
      expect(early).toEqual([]);
    });

    it('cancel prevents the callback, is idempotent, and leaves nothing pending', async () => {
      const clock = make(opts);
      let calls = 0;
      const handles = Array.from({ length: 200 }, (_, k) => clock.setTimer(() => calls++, 2 + (k % 5)));
      for (let k = 0; k < 200; k += 2) {
        handles[k]!.cancel();
        handles[k]!.cancel();
      }
      expect(clock.stats().pending).toBe(100);
      await settle(clock);
      expect(calls).toBe(100);
      handles[1]!.cancel(); // after it fired: no effect
      expect(clock.stats()).toMatchObject({ pending: 0, fired: 100 });
    });

    it('fires a timer set after the earlier ones were cancelled (dead entries never block the heap)', async () => {
      const clock = make(opts);
      const early = clock.setTimer(() => {}, 30);
      early.cancel();
      let fired = false;
      clock.setTimer(() => {
        fired = true;
      }, 60);
      await settle(clock);
      expect(fired).toBe(true);
    });

    it('keeps order and never fires early under a random mix of schedules and cancels', async () => {
      const clock = make(opts);
      let x = 12345;
      const rnd = (): number => {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        return x / 2 ** 32;
      };
      const fired: { deadline: number; at: number; id: number }[] = [];
      const cancelled = new Set<number>();
      const handles: { cancel(): void }[] = [];
      let id = 0;
      const schedule = (depth: number): void => {
        const me = id++;
        const h = clock.setTimer(
          () => {
            fired.push({ deadline: h.deadline, at: clock.now(), id: me });
            if (depth < 2 && rnd() < 0.3) schedule(depth + 1);
          },
          rnd() < 0.1 ? 0 : rnd() * 25,
        );
        handles.push(h);
        if (rnd() < 0.25) {
          const victim = Math.floor(rnd() * handles.length);
          handles[victim]!.cancel();
          // Cancelling one that already fired does nothing; only earlier cancels count.
          if (!fired.some((f) => f.id === victim)) cancelled.add(victim);
        }
      };
      for (let k = 0; k < 300; k++) schedule(0);
      await settle(clock);
      for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(f.deadline);
      for (const f of fired) expect(cancelled.has(f.id)).toBe(false);
      // Every timer either fired once or was cancelled before it fired.
      expect(new Set(fired.map((f) => f.id)).size).toBe(fired.length);
      expect(fired.length + cancelled.size).toBe(id);
      // Within one drain, deadlines are fired in order; across drains a later drain never fires an earlier one
      // that was already due at the previous drain.
      for (let j = 1; j < fired.length; j++) {
        const prev = fired[j - 1]!;
        const cur = fired[j]!;
        if (cur.deadline < prev.deadline) expect(cur.deadline).toBeGreaterThan(prev.at);
      }
    });

    it('timers scheduled by firing callbacks (even with delay 0) run, in deadline order, without starving others', async () => {
      const clock = make(opts);
      const seen: { name: string; deadline: number }[] = [];
      const deadlines = new Map<string, number>();
      const at = (name: string, fn: () => void, delay: number): void => {
        deadlines.set(
          name,
          clock.setTimer(() => {
            seen.push({ name, deadline: deadlines.get(name)! });
            fn();
          }, delay).deadline,
        );
      };
      let chain = 0;
      const again = (): void => {
        if (++chain < 20) at(`c${chain}`, again, 0);
      };
      at('a', () => at('c0', again, 0), 1);
      at('b', () => {}, 200);
      await settle(clock);
      // Every timer ran once, in deadline order (ties in scheduling order). On a quiet machine the chain
      // ends long before b is due; on a busy one `a` may fire after b's deadline, and then b comes first.
      const names = seen.map((x) => x.name);
      expect([...names].sort()).toEqual(['a', 'b', ...Array.from({ length: 20 }, (_, k) => `c${k}`)].sort());
      expect(names.filter((n) => n !== 'b')).toEqual(['a', ...Array.from({ length: 20 }, (_, k) => `c${k}`)]);
      for (let k = 1; k < seen.length; k++)
        expect(seen[k]!.deadline).toBeGreaterThanOrEqual(seen[k - 1]!.deadline);
    });

    it('rejects a negative or non-finite leadMs, naming it', () => {
      expect(() => new SystemClock({ leadMs: -1 })).toThrow(/leadMs/);
      expect(() => new SystemClock({ leadMs: Number.NaN })).toThrow(/leadMs/);
      expect(() => new SystemClock({ waker: 'spin' as 'poll' })).toThrow(/waker/);
      expect(() => new SystemClock({ waker: 'poll', pollSleepMs: -0.1 })).toThrow(/pollSleepMs/);
      expect(() => new SystemClock({ waker: 'poll', pollSleepMs: 5 })).toThrow(/pollSleepMs/);
    });
  },
);

describe.each(['thread', 'poll'])('SystemClock (%s waker) and process lifetime', (waker) => {
  it('keeps the process alive while a timer is pending and lets it exit when none is', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/runtime/fixtures/clock-exit.ts', waker], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    // The fixture's long timer is 60 s: exiting well before that proves the cancelled timer released it.
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    clearTimeout(killer);
    expect(out).toBe('fired\n');
    expect(code).toBe(0);
  });
});
