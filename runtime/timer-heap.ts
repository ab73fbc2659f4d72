// A binary min-heap of timers ordered by (deadline, insertion order), so equal deadlines fire in the order
// they were set. Cancelled timers are left in place (cb = null) and skipped or compacted away.

/** One scheduled callback; `cb` is null once fired or cancelled. */
export interface TimerEntry {
  deadline: number;
  seq: number;
  cb: (() => void) | null;
}

/** The heap; `top` is the earliest entry (possibly a cancelled one). */
export class TimerHeap {
  private readonly h: TimerEntry[] = [];

  get size(): number {
    return this.h.length;
  }

  get top(): TimerEntry | undefined {
    return this.h[0];
  }

  /** The earliest entry that is still live, dropping cancelled ones in front of it. */
  firstLive(): TimerEntry | undefined {
    while (this.h.length > 0 && this.h[0]!.cb === null) this.pop();
    return this.h[0];
  }

  push(e: TimerEntry): void {
    const h = this.h;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(e, h[p]!)) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = e;
  }

  /** Removes the top entry. */
  pop(): void {
    const h = this.h;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    let i = 0;
    const n = h.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(h[r]!, h[l]!) ? r : l;
      if (!before(h[c]!, last)) break;
      h[i] = h[c]!;
      i = c;
    }
    h[i] = last;
  }

  /** Rebuilds the heap from its live entries only. */
  compact(): void {
    const live = this.h.filter((e) => e.cb !== null);
    this.h.length = 0;
    for (const e of live) this.push(e);
  }
}

function before(a: TimerEntry, b: TimerEntry): boolean {
  return a.deadline < b.deadline || (a.deadline === b.deadline && a.seq < b.seq);
}
