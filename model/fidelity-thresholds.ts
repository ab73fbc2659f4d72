// The fidelity thresholds (a matrix's `fidelity`): how far the harness's own delays may go before a real
// point is invalid, and their defaults.

/** The harness's limits on itself at the target's end, ms (`fidelity` in the matrix). */
export interface FidelityThresholds {
  /** Hold overshoot p99: actual − intended hold of served attempts (the target's own histogram). */
  holdOvershootP99Ms: number;
  /** Request + response transit p99: what HTTP and both event loops add to a call, the server's wait before answering aside. */
  transitP99Ms: number;
  /** Target response delay p99: worker released → response written, the wait for the event loop. */
  responseDelayP99Ms: number;
  /** The load generator's send-lag p99: when a call's request was written − when it was due. */
  sendLagP99Ms: number;
}

/** The goals the harness is held to; bench/RESULTS.md says how close a machine gets. */
export const FIDELITY_DEFAULTS: Readonly<FidelityThresholds> = Object.freeze({
  holdOvershootP99Ms: 1,
  transitP99Ms: 2,
  responseDelayP99Ms: 5,
  sendLagP99Ms: 1,
});
