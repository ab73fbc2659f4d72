// The transport a run measured: an empirical delay per direction from its calibration point's raw files,
// so the simulator can predict "what this harness, on this network, should see" (the sim+net source).
//
// What counts as transport (results/README.md says the same): the request's trip is send lag + request
// transit, the response's trip is response delay (server event loop) + response transit. Send lag belongs
// to the request because the real call's clock starts at the intended send time and the load generator's
// event loop delays every write, the hedge's too. Hold overshoot does not belong to the transport: it keeps
// a worker busy past its service, so it lengthens the queue, which no delay outside the server can model;
// it stays in the real − sim gap, where the attribution takes it out of each call (its own part,
// `overshoot`) rather than a transport absorbing it. The cancellation's trip has no measurement of its own; it takes the
// request transit (an abort is a write by the client, read by the server's event loop) without send lag.

import { OUTCOME_CODE } from '../../contract/index.ts';
import { type DelayDistribution, empiricalDelay, type TransportParams } from '../../model/index.ts';
import { RawFileError } from '../errors.ts';
import type { RawAttempts, RawCalls } from '../read/raw-files.ts';
import type { Attribution } from './attribution.ts';
import type { RealPoint } from './real-row.ts';

/** Where the samples came from. */
type TransportOrigin = 'attribution' | 'residence';

/** The transport of a run and how it was derived. */
export interface MeasuredTransport {
  transport: TransportParams;
  origin: TransportOrigin;
  /** Calls that gave a sample. */
  samples: number;
  /** Samples below 0 ms (clock-offset error) raised to 0, summed over the directions. */
  clamped: number;
  /** How the samples were split, in a sentence for notes and the report. */
  method: string;
}

/** The per-direction samples, before they become distributions. */
interface Samples {
  request: number[];
  response: number[];
  cancel: number[];
}

function fromAttribution(a: Attribution): Samples {
  const p = a.parts;
  const out: Samples = { request: [], response: [], cancel: [] };
  for (let k = 0; k < a.n; k++) {
    let req = p.request_transit[k];
    let resp = p.response_transit[k];
    if (a.offset === null) {
      // Without a clock offset request transit holds the whole round trip; halves are the honest guess.
      const rt = req + resp;
      req = rt / 2;
      resp = rt / 2;
    }
    out.request.push(p.send_lag[k] + req);
    out.response.push(p.response_delay[k] + resp);
    out.cancel.push(req);
  }
  return out;
}

// Older raw files have no write or response times: client latency − server residence is the whole round
// trip (send lag included, overshoot excluded as residence ends at release), split in halves.
function fromResidence(calls: RawCalls, attempts: RawAttempts): Samples {
  const byAttempt = new Map<number, number>();
  for (let j = 0; j < attempts.n; j++) byAttempt.set(attempts.call[j] * 16 + attempts.attempt[j], j);
  const out: Samples = { request: [], response: [], cancel: [] };
  for (let i = 0; i < calls.n; i++) {
    if (calls.outcome[i] !== OUTCOME_CODE.ok) continue;
    const j = byAttempt.get(calls.call[i] * 16 + calls.winner[i]);
    if (j === undefined || Number.isNaN(attempts.startMs[j])) continue;
    const end = Number.isNaN(attempts.respondedMs[j]) ? attempts.endMs[j] : attempts.respondedMs[j];
    const trip = calls.latencyMs[i] - (end - attempts.enqueueMs[j]);
    if (!Number.isFinite(trip)) continue;
    const send = Number.isFinite(calls.sendLagMs[i]) ? calls.sendLagMs[i] : 0;
    const wire = Math.max(0, trip - send) / 2;
    out.request.push(send + wire);
    out.response.push(wire);
    out.cancel.push(wire);
  }
  return out;
}

/**
 * The transport measured by a run's calibration point `slug`, from its raw files as real-row.ts read them
 * (model time). Throws TransportSamplesError (with the count) when fewer than 100 calls give a sample,
 * RawFileError when the point has no attempt records.
 */
export function measuredTransport(
  point: Pick<RealPoint, 'calls' | 'attempts' | 'attribution'>,
  slug: string,
): MeasuredTransport {
  const { calls, attempts, attribution: a } = point;
  if (attempts === null || a === null) {
    throw new RawFileError(
      `raw/${slug}.attempts.csv is missing: the transport is measured from the server's attempt records`,
    );
  }
  const useAttribution = a.n >= a.missing && a.n > 0;
  const s = useAttribution ? fromAttribution(a) : fromResidence(calls, attempts);
  let clamped = 0;
  const clamp = (xs: number[]) =>
    xs.map((x) => {
      if (x >= 0) return x;
      clamped++;
      return 0;
    });
  const where = `the calibration point (${slug})`;
  const dist = (xs: number[], dir: string): DelayDistribution =>
    empiricalDelay(clamp(xs), `sim+net transport from ${where}, ${dir} delay`);
  const transport: TransportParams = {
    request: dist(s.request, 'request'),
    response: dist(s.response, 'response'),
    cancel: dist(s.cancel, 'cancellation'),
  };
  const method = useAttribution
    ? `per call from the attribution: request = send lag + request transit, response = response delay + response transit, cancellation = request transit${a.offset === null ? ' (no clock offset recorded: the round trip is split in halves)' : ''}; hold overshoot stays out`
    : 'per call from client latency − server residence (these raw files have no write times): send lag goes to the request, the rest is split in halves between request and response; the cancellation takes one half';
  return {
    transport,
    origin: useAttribution ? 'attribution' : 'residence',
    samples: s.request.length,
    clamped,
    method,
  };
}
