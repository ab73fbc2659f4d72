// A point's own measured trips, replayed: the delays a real point's requests, winning responses and peer
// cancels took, call by call, for the simulator to take instead of drawing them (sim+net of a tied point,
// analysis/judge/tie-replay.ts). A tie's outcome is a race the harness's µs decide — which copy starts first,
// whether its cancel reaches the other before that one starts — so draws from the calibration point's
// distribution, however faithful, race differently from the measurement call by call, and the pairing by call
// that the verdict rests on is lost. A trip the replay does not hold (a copy the measurement never sent, a
// cancel in the other direction) falls back to the transport's draw.

/** Measured trips by key, model ms. */
export interface TransportReplay {
  /** Per attempt (replayKey): from the instant the simulator sends it to its arrival at the server. */
  request: ReadonlyMap<number, number>;
  /** Per attempt (replayKey): from its worker's release to the client reading the response. */
  response: ReadonlyMap<number, number>;
  /** Per ordered pair of a call's copies (peerReplayKey): the peer cancel's trip between their servers. */
  peerCancel: ReadonlyMap<number, number>;
}

/** The key of attempt `attempt` (1..10) of call `call`. */
export function replayKey(call: number, attempt: number): number {
  return call * 16 + attempt;
}

/** The key of the peer cancel from copy `from`'s server to copy `to`'s, of call `call`. */
export function peerReplayKey(call: number, from: number, to: number): number {
  return call * 256 + from * 16 + to;
}

/** How many trips a replay holds, in a phrase for notes and the report. */
export function describeReplay(r: TransportReplay): string {
  return `${r.request.size} requests, ${r.response.size} responses and ${r.peerCancel.size} peer cancels replayed`;
}

/** The replay on a clock k times slower (model/time-scale.ts dilateTransport): every trip × k. */
export function dilateReplay(r: TransportReplay, k: number): TransportReplay {
  const d = (m: ReadonlyMap<number, number>) => new Map([...m].map(([key, ms]) => [key, ms * k]));
  return { request: d(r.request), response: d(r.response), peerCancel: d(r.peerCancel) };
}
