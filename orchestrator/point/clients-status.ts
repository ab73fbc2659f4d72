// The status of a point measured by K load generators, from their K status hashes: one status in the shape
// a single generator writes (what the analysis and the lost-records check read), plus every client's own
// status under `clients` — each one's self-check (send lag, rate, arrivals) judged on its own sends.

import type { SummaryRead } from '../../contract/index.ts';

type Status = Record<string, unknown>;

/**
 * The point's status from its clients' parsed hashes (index = client; null = that client wrote none).
 * Counters are summed; the point is valid only if every client is, and its send-lag p99 is the worst client's.
 */
export function mergeClientStatuses(clients: readonly (Status | null)[]): Status {
  const K = clients.length;
  const summaries = clients.map((c) => (isObject(c?.summary) ? (c.summary as SummaryRead) : null));
  const tagged = (i: number, text: string) => `client ${i}: ${text}`;
  const states = clients.map((c) => (typeof c?.state === 'string' ? c.state : 'missing'));
  const state = states.every((s) => s === 'done') ? 'done' : states.includes('failed') ? 'failed' : 'running';
  const errors = clients.flatMap((c, i) =>
    typeof c?.error === 'string' && c.error !== '' ? [tagged(i, c.error)] : [],
  );
  const lagP99 = worst(summaries.map((s) => s?.selfCheck?.sendLag?.p99Ms));
  const reasons = summaries.flatMap((s, i) =>
    s === null ? [tagged(i, 'wrote no summary')] : (s.reasons ?? []).map((r) => tagged(i, r)),
  );
  const sumOf = (f: string) =>
    summaries.reduce((t, s) => t + (typeof s?.[f] === 'number' ? (s[f] as number) : 0), 0);
  const recorders = summaries.map((s) => s?.recorder ?? null);
  const summary: SummaryRead = {
    state: summaries.every((s) => s?.state === 'done') ? 'done' : 'failed',
    error: errors.length > 0 ? errors.join('; ') : null,
    clients: K,
    calls: summaries.find((s) => s !== null)?.calls ?? null,
    warmupCalls: summaries.find((s) => s !== null)?.warmupCalls ?? null,
    sent: sumOf('sent'),
    completed: sumOf('completed'),
    abandoned: sumOf('abandoned'),
    measured: sumRecords(summaries.map((s) => s?.measured)),
    attemptsUnwritten: sumOf('attemptsUnwritten'),
    attemptFailures: sumRecords(summaries.map((s) => s?.attemptFailures)),
    // The worst client's: each client's self-check judges its own sends against the threshold.
    selfCheck: { sendLag: { p99Ms: lagP99 } },
    inflight: {
      max: summaries.reduce((t, s) => t + (s?.inflight?.max ?? 0), 0),
      cap: summaries.reduce((t, s) => t + (s?.inflight?.cap ?? 0), 0),
      timeline: sumTimelines(summaries.map((s) => s?.inflight?.timeline ?? [])),
    },
    collapsed: summaries.some((s) => s?.collapsed === true),
    collapseReason:
      summaries.flatMap((s, i) => (s?.collapseReason ? [tagged(i, s.collapseReason)] : [])).join('; ') ||
      null,
    recorder: recorders.every((r) => r === null)
      ? null
      : {
          written: recorders.reduce((t, r) => t + (r?.written ?? 0), 0),
          dropped: recorders.reduce((t, r) => t + (r?.dropped ?? 0), 0),
          failedBatches: recorders.reduce((t, r) => t + (r?.failedBatches ?? 0), 0),
        },
    // Client 0's offset to the target, for whoever reads one; attribution reads each client's own (its t0 and
    // offset), since their t0s differ by however fast each left the start barrier.
    clock: summaries[0]?.clock ?? null,
    valid: reasons.length === 0 && summaries.every((s) => s?.valid === true),
    reasons,
  };
  return {
    state,
    error: errors.join('; '),
    sent: summary.sent,
    completed: summary.completed,
    ...(lagP99 === null ? {} : { send_lag_p99_ms: lagP99 }),
    summary,
    clients: clients.map((c, i) => ({ client: i, ...(c ?? { state: 'missing' }) })),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function worst(xs: readonly (number | null | undefined)[]): number | null {
  const ok = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  return ok.length > 0 ? Math.max(...ok) : null;
}

function sumRecords(rs: readonly (Record<string, number> | undefined)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rs) for (const [k, v] of Object.entries(r ?? {})) out[k] = (out[k] ?? 0) + v;
  return out;
}

// The clients sample in flight at the same period from t0s a few ms apart (the start barrier): the k-th samples
// are summed, at client 0's times.
function sumTimelines(ts: readonly Array<[number, number]>[]): Array<[number, number]> {
  const n = Math.min(...ts.map((t) => t.length));
  return Array.from({ length: Number.isFinite(n) ? n : 0 }, (_, k) => [
    ts[0][k][0],
    ts.reduce((t, tl) => t + tl[k][1], 0),
  ]);
}
