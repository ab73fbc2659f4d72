// The per-client figures of a point measured by K load generators (`clients: K`): each client's calls (those
// with call index ≡ client mod K) through the same RowBuilder as the point's row, and each client's own
// self-check from its status (status.json `clients[i]`, written by the drain).

import {
  CALL_OUTCOMES,
  type ClientFigures,
  type ClientStatus,
  RowBuilder,
  type RowContext,
} from '../../contract/index.ts';
import { clientOfCall } from '../../model/index.ts';
import type { PointStatus, RawCalls } from './raw-files.ts';

/** The figures of each of the point's `clients` load generators, from its measured calls and its status. */
export function clientFigures(
  calls: RawCalls,
  status: PointStatus | null,
  ctx: RowContext,
  clients: number,
): ClientFigures[] {
  const builders = Array.from({ length: clients }, () => new RowBuilder(ctx));
  for (let i = 0; i < calls.n; i++) {
    builders[clientOfCall(calls.call[i], clients)].addCall(
      calls.latencyMs[i],
      CALL_OUTCOMES[calls.outcome[i]],
      calls.attempts[i],
      calls.skipped[i],
    );
  }
  const statuses = (Array.isArray(status?.clients) ? status.clients : []) as ClientStatus[];
  return builders.map((b, client) => {
    const s = statuses[client]?.summary;
    const lag = s?.selfCheck?.sendLag?.p99Ms;
    const sendLagP99Ms = typeof lag === 'number' && Number.isFinite(lag) ? lag : null;
    const row = b.finish({ busyMs: Number.NaN, spanMs: 0, collapsed: false, sendLagP99Ms, valid: true });
    return {
      client,
      measuredCalls: row.measured_calls,
      requestsPerCall: row.requests_per_call,
      hedgeRate: row.hedge_rate,
      p99Ms: row.p99_ms,
      sendLagP99Ms,
      selfCheckPassed: s === undefined ? null : s.valid === true,
      reasons: s === undefined ? ['no status of this client'] : (s.reasons ?? []),
    };
  });
}
