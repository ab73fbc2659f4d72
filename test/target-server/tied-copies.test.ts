// A target server's memory of tied copies (target-server/tied-copies.ts), on an injected clock: a cancel that
// comes before its copy is remembered for TIE_MEMORY_MS and then forgotten (counted as expired), the memory
// never holds more than TIE_MEMORY_MAX, a cancel for a copy that ended is too late, and a peer cancel that is on
// its way to the pool thread when the copy starts is too late as well.

import { describe, expect, it } from 'vitest';
import type { PoolTicket } from '../../model/index.ts';
import { ServerTies, TIE_MEMORY_MAX, TIE_MEMORY_MS, TiedCopy } from '../../target-server/tied-copies.ts';

function ties() {
  let now = 0;
  const sent: [number, number, number][] = [];
  const removals: PoolTicket[] = [];
  const t = new ServerTies(
    (replica, call, attempt) => sent.push([replica, call, attempt]),
    (ticket) => removals.push(ticket),
    () => now,
  );
  return { t, sent, removals, at: (ms: number) => (now = ms) };
}

const TICKET: PoolTicket = { cancel() {} };

describe('ServerTies', () => {
  it('remembers an early cancel for TIE_MEMORY_MS, then forgets it (expired)', () => {
    const { t, at } = ties();
    expect(t.receive(1, 1, 100)).toBe('remembered');
    expect(t.receive(2, 1, 100)).toBe('remembered');
    at(TIE_MEMORY_MS - 1);
    expect(t.arrive(1, 2, [0])).toEqual({ arrivedMs: 100 });
    at(TIE_MEMORY_MS + 1);
    // Call 2's cancel has expired: its copy arrives and is queued as any.
    expect(t.arrive(2, 2, [0])).toBeInstanceOf(TiedCopy);
    expect(t.stats).toMatchObject({ received: 2, remembered: 2, droppedOnArrival: 1, expired: 1 });
  });

  it('keeps at most TIE_MEMORY_MAX early cancels, forgetting the oldest', () => {
    const { t } = ties();
    for (let c = 0; c <= TIE_MEMORY_MAX; c++) t.receive(c, 1, 0);
    expect(t.stats.expired).toBe(1);
    expect(t.arrive(0, 2, [])).toBeInstanceOf(TiedCopy);
    expect(t.arrive(1, 2, [])).toEqual({ arrivedMs: 0 });
  });

  it('a started copy cancels its siblings; a cancel for a copy in service or ended is too late', () => {
    const { t, sent } = ties();
    const c = t.arrive(3, 1, [1, 2]) as TiedCopy;
    c.ticket = TICKET;
    t.started(c);
    expect(sent).toEqual([
      [1, 3, 1],
      [2, 3, 1],
    ]);
    expect(Number.isFinite(c.sentMs)).toBe(true);
    expect(t.receive(3, 2, 50)).toBe('too-late');
    // The server knew the copy had started: decided as it arrived.
    expect(c).toMatchObject({ fate: 'too-late', arrivedMs: 50, decidedMs: 50 });
    // Its own cancel coming back changes nothing.
    expect(t.receive(3, 1, 60)).toBe('ignored');
    t.ended(c, false);
    expect(t.receive(3, 3, 70)).toBe('too-late');
    expect(t.stats).toMatchObject({ sent: 2, tooLate: 2, remembered: 0 });
  });

  it('a removal on its way to the pool thread when the copy starts is too late', () => {
    const { t, removals } = ties();
    const c = t.arrive(4, 2, [0]) as TiedCopy;
    c.ticket = TICKET;
    expect(t.receive(4, 1, 10)).toBe('removing');
    expect(t.receive(4, 1, 11)).toBe('removing');
    expect(removals).toEqual([TICKET]);
    t.started(c);
    expect(c.fate).toBe('too-late');
    // Decided when the pool found it started (its report), not when the cancel reached the server.
    expect(Number.isNaN(c.decidedMs)).toBe(true);
    t.foundStarted(c, 12.5);
    t.foundStarted(c, 13);
    expect(c).toMatchObject({ arrivedMs: 10, decidedMs: 12.5 });
    expect(t.stats).toMatchObject({ received: 2, tooLate: 1, removed: 0 });
    const d = t.arrive(5, 2, [0]) as TiedCopy;
    d.ticket = TICKET;
    t.receive(5, 1, 20);
    t.ended(d, true, 21.5);
    expect(d).toMatchObject({ fate: 'removed', arrivedMs: 20, decidedMs: 21.5 });
    expect(t.stats.removed).toBe(1);
    t.reset();
    expect(t.stats).toMatchObject({ received: 0, removed: 0, tooLate: 0 });
  });
});
