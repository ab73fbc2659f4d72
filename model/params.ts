// Parameters of the shared service model: N workers behind one FIFO queue shared by every attempt, each
// attempt drawing its own service time (log-normal body, uniform stragglers); every value is a setting of
// the matrix (`model`), defaults below. The simulator and the target server both run exactly this model.

/** The service: N workers behind one FIFO queue; service time log-normal with a straggler mixture. */
export interface ModelParams {
  workers: number;
  /** Median of the log-normal body, ms. */
  medianMs: number;
  /** Sigma of the underlying normal. */
  sigma: number;
  /** Probability that an attempt is a straggler instead. */
  stragglerProb: number;
  /** Stragglers are uniform in [stragglerMinMs, stragglerMaxMs]. */
  stragglerMinMs: number;
  stragglerMaxMs: number;
  /** Absent = the log-normal mixture above. Set only for theory checks (M/M/c, M/D/1). */
  service?: ServiceOverride;
  /**
   * Probability that an attempt fails (model/attempt-failure.ts); absent = 0, no failures (today's model). A
   * failing attempt queues like any other, holds its worker for `errorMs` instead of its service draw, then
   * answers with an error.
   */
  errorProb?: number;
  /** How long a failing attempt holds its worker, ms (absent = DEFAULT_ERROR_MS). Dilates with the clock. */
  errorMs?: number;
  /** Probability that a call's attempts share attempt 1's error draw (absent = 0: each attempt its own). */
  errorCorrelation?: number;
  /** The server's pushback rule (model/attempt-failure.ts); absent = the server never pushes back. */
  pushback?: PushbackRule;
}

/**
 * A response sent while the server's queue is longer than `queueAbove` asks the client for no hedges for
 * `ms` (the library's `Outcome.pushbackMs`); only a client whose budget honours pushback reacts.
 */
export interface PushbackRule {
  /** Attempts waiting for a worker above which a response carries pushback (whole, ≥ 0). */
  queueAbove: number;
  /** No hedges for this long, ms (> 0). Dilates with the clock. */
  ms: number;
}

/** A textbook service distribution that replaces the mixture: exponential with a mean, or constant. */
type ServiceOverride = { kind: 'exponential'; meanMs: number } | { kind: 'constant'; ms: number };

/** The reference study's model. */
export const DEFAULT_MODEL: Readonly<ModelParams> = Object.freeze({
  workers: 16,
  medianMs: 10,
  sigma: 0.25,
  stragglerProb: 0.02,
  stragglerMinMs: 100,
  stragglerMaxMs: 300,
});
