// ManualClock: (time, insertion order) firing, cancellation, runUntil/runNext/pending, and the async helper.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../library/index.ts';

describe('ManualClock', () => {
  it('fires in time order and breaks ties by insertion order', () => {
    const clock = new ManualClock();
    const log: string[] = [];
    clock.setTimer(() => log.push(`b@${clock.now()}`), 5);
    clock.setTimer(() => log.push(`a@${clock.now()}`), 3);
    clock.setTimer(() => log.push(`c@${clock.now()}`), 5);
    clock.setTimer(() => log.push(`d@${clock.now()}`), 5);
    clock.advance(10);
    expect(log).toEqual(['a@3', 'b@5', 'c@5', 'd@5']);
    expect(clock.now()).toBe(10);
  });

  it('runs timers scheduled during a run when they are due, zero and negative delays as soon as possible', () => {
    const clock = new ManualClock({ start: 100 });
    const log: string[] = [];
    clock.setTimer(() => {
      log.push(`outer@${clock.now()}`);
      clock.setTimer(() => log.push(`zero@${clock.now()}`), 0);
      clock.setTimer(() => log.push(`neg@${clock.now()}`), -4);
      clock.setTimer(() => log.push(`late@${clock.now()}`), 50);
    }, 1);
    clock.setTimer(() => log.push(`same@${clock.now()}`), 1);
    clock.runUntil(120);
    expect(log).toEqual(['outer@101', 'same@101', 'zero@101', 'neg@101']);
    expect(clock.pending()).toBe(1);
    expect(clock.nextTime()).toBe(151);
    clock.runUntil(151);
    expect(log.at(-1)).toBe('late@151');
    expect(clock.pending()).toBe(0);
  });

  it('cancels by handle; cancelling twice, after firing or through a stale handle does nothing', () => {
    const clock = new ManualClock();
    const log: number[] = [];
    const a = clock.setTimer(() => log.push(1), 1);
    const b = clock.setTimer(() => log.push(2), 2);
    a.cancel();
    a.cancel();
    expect(clock.pending()).toBe(1);
    clock.advance(5);
    expect(log).toEqual([2]);
    b.cancel();
    // The slots of a and b are reused now; their old handles must not touch the new timers.
    clock.setTimer(() => log.push(3), 1);
    clock.setTimer(() => log.push(4), 1);
    a.cancel();
    b.cancel();
    expect(clock.pending()).toBe(2);
    clock.advance(1);
    expect(log).toEqual([2, 3, 4]);
  });

  it('runNext fires one live timer at a time and skips tombstones', () => {
    const clock = new ManualClock();
    const log: number[] = [];
    const h = clock.setTimer(() => log.push(1), 1);
    clock.setTimer(() => log.push(2), 7);
    h.cancel();
    expect(clock.runNext()).toBe(true);
    expect(clock.now()).toBe(7);
    expect(log).toEqual([2]);
    expect(clock.runNext()).toBe(false);
    expect(clock.now()).toBe(7);
  });

  it('keeps order through growth and compaction with many cancelled timers', () => {
    const clock = new ManualClock();
    const fired: number[] = [];
    const handles = [];
    for (let i = 0; i < 20_000; i++) {
      const at = (i * 7919) % 1000;
      handles.push(clock.setTimer(() => fired.push(i), at));
    }
    for (let i = 0; i < 20_000; i++) if (i % 10 !== 0) handles[i].cancel();
    expect(clock.pending()).toBe(2000);
    clock.runAll();
    expect(fired.length).toBe(2000);
    const keys = fired.map((i) => ((i * 7919) % 1000) * 1e6 + i);
    expect(keys).toEqual([...keys].sort((x, y) => x - y));
    expect(clock.pending()).toBe(0);
  });

  it('advanceAsync lets promise continuations run between timer firings', async () => {
    const clock = new ManualClock();
    const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimer(resolve, ms));
    const log: number[] = [];
    const task = (async () => {
      await sleep(10);
      log.push(clock.now());
      await sleep(10);
      log.push(clock.now());
      await Promise.resolve();
      await sleep(5);
      log.push(clock.now());
    })();
    await clock.advanceAsync(24);
    expect(log).toEqual([10, 20]);
    await clock.advanceAsync(1);
    expect(log).toEqual([10, 20, 25]);
    await task;
    expect(clock.pending()).toBe(0);
  });
});
