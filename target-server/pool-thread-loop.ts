// The body of the pool thread: a synchronous loop that owns the queue and the workers. It never returns to
// its event loop while running — it sleeps in Atomics.wait until the next worker's deadline or a command —
// so nothing the main thread does (parsing, JSON, GC) can delay a worker's end or the next start.
//
// `poolThreadLoop` is shipped to the thread as source text (Function.prototype.toString, see
// pool-thread-source.ts), so it must be self-contained: no runtime imports (types only), no module-level
// names; everything it needs arrives in `init` (shared memory and the layout, pool-thread-layout.ts), `host`
// (the few Node APIs it calls) and `settlePriority` (pool-thread-priority.ts, shipped beside it).

import type { PoolThreadHost, PoolThreadInit } from './pool-thread-layout.ts';
import type { PoolThreadPriority } from './pool-thread-priority.ts';

/** Runs until the stop cell is set. */
export function poolThreadLoop(
  init: PoolThreadInit,
  host: PoolThreadHost,
  settlePriority: (init: PoolThreadInit, host: PoolThreadHost) => PoolThreadPriority,
): void {
  const L = init.layout;
  const ctl = new Int32Array(init.ctl);
  const cmds = new Float64Array(init.cmds);
  const st = new Float64Array(init.stats);
  const mask = init.capacity - 1;
  // hrtime.bigint() allocates a BigInt per read, and garbage here means scavenges that stall this thread; so
  // read the thread's own performance.now() and shift it onto the main thread's origin once, from the
  // tightest of several brackets (an interrupted one would misplace every time by half its width).
  let width = Number.POSITIVE_INFINITY;
  let toMain = 0;
  for (let i = 0; i < 20; i++) {
    const p1 = host.perfNow();
    const h = host.hrtimeMs();
    const p2 = host.perfNow();
    if (p2 - p1 < width) [width, toMain] = [p2 - p1, h - (p1 + p2) / 2 - init.offsetMs];
  }
  const now = (): number => host.perfNow() + toMain;

  host.post({ type: 'ready', ...settlePriority(init, host) });

  interface Entry {
    id: number;
    serviceMs: number;
    enqueueMs: number;
    state: number;
    worker: number;
    startMs: number;
    deadline: number;
    cancelRequested: boolean;
    /** A tied copy: its start is reported (evStarted), a peer cancel may remove it. */
    tied: boolean;
  }
  const QUEUED = 0;
  const IN_SERVICE = 1;
  const ENDED = 2;

  let workers = init.workers;
  let propagate = init.propagate;
  let running: (Entry | null)[] = [];
  let free: number[] = [];
  const setupWorkers = (): void => {
    running = new Array(workers).fill(null);
    free = [];
    // Stack of free workers, worker 0 on top: the model WorkerPool's order.
    for (let w = workers - 1; w >= 0; w--) free.push(w);
  };
  setupWorkers();

  const byId = new Map<number, Entry>();
  // Ring of queued entries; cancelled ones stay as tombstones (ENDED) until popped, as in WorkerPool.
  let ring: (Entry | null)[] = new Array(1024).fill(null);
  let head = 0;
  let tail = 0;
  let queued = 0;

  let submitted = 0;
  let served = 0;
  let cancelledQueued = 0;
  let cancelledInService = 0;
  let cancelRequests = 0;
  let busyMs = 0;
  let maxQueue = 0;
  let queueArea = 0;
  let lastQueueChange = now();

  let out: number[] = [];
  let ackPending = -1;

  const accrue = (t: number): void => {
    queueArea += queued * (t - lastQueueChange);
    lastQueueChange = t;
  };
  const emit = (kind: number, e: Entry, t: number): void => {
    out.push(kind, e.id, e.enqueueMs, e.startMs, t, e.worker);
  };
  const pump = (t: number): void => {
    while (free.length > 0 && head < tail) {
      const i = head % ring.length;
      const e = ring[i]!;
      ring[i] = null;
      head++;
      if (e.state === ENDED) continue;
      accrue(t);
      queued--;
      const w = free.pop()!;
      e.state = IN_SERVICE;
      e.worker = w;
      e.startMs = t;
      e.deadline = t + e.serviceMs;
      running[w] = e;
      // Only tied copies report their start: untied points post exactly the events they always did.
      if (e.tied) out.push(L.evStarted, e.id, e.enqueueMs, t, 0, w);
    }
  };
  const release = (e: Entry, t: number): void => {
    e.state = ENDED;
    busyMs += t - e.startMs;
    running[e.worker] = null;
    free.push(e.worker);
    byId.delete(e.id);
  };
  const enqueue = (e: Entry, t: number): void => {
    if (tail - head === ring.length) {
      const n = ring.length;
      const next: (Entry | null)[] = new Array(n * 2).fill(null);
      for (let k = 0; k < n; k++) next[k] = ring[(head + k) % n]!;
      ring = next;
      tail -= head;
      head = 0;
    }
    accrue(t);
    ring[tail % ring.length] = e;
    tail++;
    queued++;
    if (queued > maxQueue) maxQueue = queued;
  };

  // Ends every service whose deadline has passed (never one that has not), earliest deadline first, each
  // freed worker taking the next queued attempt at once — WorkerPool's complete() for each.
  const endDue = (): void => {
    for (;;) {
      const t = now();
      let due: Entry | null = null;
      for (const e of running) {
        if (e !== null && e.deadline <= t && (due === null || e.deadline < due.deadline)) due = e;
      }
      if (due === null) return;
      release(due, t);
      served++;
      pump(t);
      emit(L.evServed, due, t);
    }
  };

  const apply = (row: number): void => {
    const op = cmds[row];
    const id = cmds[row + 1]!;
    const t = now();
    if (op === L.opSubmit) {
      const e: Entry = {
        id,
        serviceMs: cmds[row + 2]!,
        enqueueMs: t,
        state: QUEUED,
        worker: -1,
        startMs: Number.NaN,
        deadline: Number.POSITIVE_INFINITY,
        cancelRequested: false,
        tied: cmds[row + 3] === 1,
      };
      byId.set(id, e);
      submitted++;
      enqueue(e, t);
      if (free.length > 0) pump(t);
    } else if (op === L.opCancel) {
      const e = byId.get(id);
      if (e === undefined || e.state === ENDED || e.cancelRequested) return;
      e.cancelRequested = true;
      cancelRequests++;
      out.push(L.evCancelRequest, id, 0, 0, 0, 0);
      if (!propagate) return;
      if (e.state === QUEUED) {
        accrue(t);
        queued--;
        e.state = ENDED;
        byId.delete(id);
        cancelledQueued++;
        emit(L.evCancelledQueued, e, t);
        return;
      }
      release(e, t);
      cancelledInService++;
      pump(t);
      emit(L.evCancelledInService, e, t);
    } else if (op === L.opPeerCancel) {
      // The server's own drop of a tied copy: only while queued, in either mode; not a client cancel, so it
      // counts in cancelledQueued and not in cancelRequests. In service or ended: left alone (too late).
      const e = byId.get(id);
      if (e !== undefined && e.state === IN_SERVICE) emit(L.evPeerTooLate, e, t);
      if (e === undefined || e.state !== QUEUED) return;
      accrue(t);
      queued--;
      e.state = ENDED;
      byId.delete(id);
      cancelledQueued++;
      emit(L.evPeerRemoved, e, t);
    } else if (op === L.opReset) {
      submitted = served = cancelledQueued = cancelledInService = cancelRequests = 0;
      busyMs = queueArea = 0;
      maxQueue = queued;
      lastQueueChange = t;
      ackPending = id;
    } else if (op === L.opReconfigure) {
      // The main thread only sends this when nothing is in flight.
      workers = cmds[row + 2]!;
      propagate = cmds[row + 3] === 1;
      setupWorkers();
      ackPending = id;
    } else if (op === L.opCrash) {
      throw new Error('crash requested by a test (opCrash)');
    }
  };

  const publish = (): void => {
    // Seqlock: odd while writing, so a reader never takes a half-written snapshot.
    Atomics.add(ctl, L.ctlStatsSeq, 1);
    st[L.stQueued] = queued;
    st[L.stBusy] = workers - free.length;
    st[L.stSubmitted] = submitted;
    st[L.stServed] = served;
    st[L.stCancelledQueued] = cancelledQueued;
    st[L.stCancelledInService] = cancelledInService;
    st[L.stCancelRequests] = cancelRequests;
    st[L.stBusyMs] = busyMs;
    st[L.stMaxQueue] = maxQueue;
    st[L.stQueueArea] = queueArea;
    st[L.stLastQueueChange] = lastQueueChange;
    Atomics.add(ctl, L.ctlStatsSeq, 1);
  };

  let read = Atomics.load(ctl, L.ctlRead);
  publish();
  for (;;) {
    if (Atomics.load(ctl, L.ctlStop) !== 0) return;
    endDue();
    const written = Atomics.load(ctl, L.ctlWrite);
    while (read !== written) {
      apply((read & mask) * L.cmdWidth);
      read = (read + 1) | 0;
    }
    Atomics.store(ctl, L.ctlRead, read);
    endDue();
    publish();
    if (out.length > 0) {
      const batch = Float64Array.from(out);
      out = [];
      host.post(batch, [batch.buffer]);
    }
    if (ackPending !== -1) {
      Atomics.store(ctl, L.ctlAck, ackPending);
      Atomics.notify(ctl, L.ctlAck);
      ackPending = -1;
    }
    let next = Number.POSITIVE_INFINITY;
    for (const e of running) if (e !== null && e.deadline < next) next = e.deadline;
    const wait = next - now() - init.spinMs;
    // Wakes at the deadline (or spinMs before it) or as soon as the main thread writes a command.
    if (wait > 0) {
      // The main thread notifies only a sleeping thread: every notify takes V8's process-wide futex lock,
      // which a normal-priority thread may hold while descheduled, and this thread would then wait for it.
      Atomics.store(ctl, L.ctlSleeping, 1);
      Atomics.wait(ctl, L.ctlWrite, written, wait);
      Atomics.store(ctl, L.ctlSleeping, 0);
    } else if (next - now() > 0) {
      // The last stretch: spin, so the end does not wait for the scheduler to wake this thread.
      while (now() < next && Atomics.load(ctl, L.ctlWrite) === written) {
        // Spinning on purpose.
      }
    }
  }
}
