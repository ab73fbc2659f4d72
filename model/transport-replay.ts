// A point's own measured harness, replayed: the delays a real point's requests, responses and peer cancels
// took, and how much longer than intended its workers held each attempt, call by call, for the simulator to
// take instead of drawing them (sim+net of a tied point, analysis/judge/tie-replay.ts). A tie's outcome is a
// race the harness's µs decide — which copy starts first, whether its cancel reaches the other before that
// one starts — so draws from the calibration point's distribution, however faithful, race differently from
// the measurement call by call, and the pairing by call that the verdict rests on is lost. A trip the replay
// does not hold (a copy the measurement never sent, a cancel in the other direction) falls back to the
// transport's draw; a hold it does not hold overshoots by nothing.

/** Measured trips and overshoots by key, model ms. */
export interface TransportReplay {
  /**
   * Per attempt (replayKey): the replica the client sent it to. A balancer that counts the client's attempts in
   * flight (two-choices, least-outstanding) picks by the client's timing — a generator's bunched sends
   * interleave copies of several calls — so its picks are the harness's too; random's are the model's anyway.
   */
  replica: ReadonlyMap<number, number>;
  /** Per attempt (replayKey): from the instant the simulator sends it to its arrival at the server. */
  request: ReadonlyMap<number, number>;
  /** Per attempt (replayKey): from its worker's release to the client reading the response. */
  response: ReadonlyMap<number, number>;
  /** Per attempt (replayKey): from the client's cancel to the server ending the attempt for it. */
  cancel: ReadonlyMap<number, number>;
  /** Per ordered pair of a call's copies (peerReplayKey): the peer cancel's trip between their servers. */
  peerCancel: ReadonlyMap<number, number>;
  /**
   * Per attempt (replayKey): how much longer than its service draw its worker held it (the pool's lateness in
   * ending it, a harness part; for one its client's cancel cut short while it overshot, enough to be still in
   * service then). A later copy of a tie starts when a worker frees, so µs of it decide which copy a busy
   * server starts first.
   */
  overshoot: ReadonlyMap<number, number>;
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
  return `${r.replica.size} replica picks, ${r.request.size} requests, ${r.response.size} responses, ${r.cancel.size} cancellations, ${r.peerCancel.size} peer cancels and ${r.overshoot.size} holds' overshoots replayed`;
}

/** The replay on a clock k times slower (model/time-scale.ts dilateTransport): every trip × k. */
export function dilateReplay(r: TransportReplay, k: number): TransportReplay {
  const d = (m: ReadonlyMap<number, number>) => new Map([...m].map(([key, ms]) => [key, ms * k]));
  return {
    replica: r.replica,
    request: d(r.request),
    response: d(r.response),
    cancel: d(r.cancel),
    peerCancel: d(r.peerCancel),
    overshoot: d(r.overshoot),
  };
}
