// A configuration hedged by gRPC itself (gRFC A6): the service config's hedgingPolicy and retryThrottling
// as a matrix writes them, the gRPC status names A6 accepts for nonFatalStatusCodes, and the service
// config JSON a grpc-js channel is given. The simulator predicts such a configuration with the library's
// A6HedgePolicy; the load generator hands it to grpc-js untouched.

/** hedgingPolicy (A6), with the delay in ms. */
export interface GrpcHedgingOptions {
  /** Attempts per call including the first: ≥ 2; clients treat more than 5 as 5. */
  maxAttempts: number;
  /** ≥ 0; 0 = every attempt at once. */
  hedgingDelayMs: number;
  /** Status codes (numbers or names such as "UNAVAILABLE") after which the next attempt goes at once. */
  nonFatalStatusCodes?: readonly (number | string)[];
  /**
   * Prediction only: may the throttle stop a hedge? true (default) = as A6 says; false = as grpc-js's
   * source does (it checks the bucket on retries only). Not part of the service config.
   */
  throttleHedges?: boolean;
}

/** retryThrottling (A6): one token bucket per channel. */
export interface RetryThrottlingOptions {
  /** (0, 1000]. */
  maxTokens: number;
  /** > 0, at most 3 decimals. */
  tokenRatio: number;
}

/** gRPC status codes by name (the canonical list, 0..16). */
export const GRPC_STATUS_CODES: Readonly<Record<string, number>> = Object.freeze({
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
});

/** A status name or number as a number; undefined when it is neither. */
export function grpcStatusCode(c: number | string): number | undefined {
  if (typeof c === 'number') return Number.isInteger(c) && c >= 0 && c <= 16 ? c : undefined;
  return GRPC_STATUS_CODES[c.toUpperCase()];
}

/**
 * The service config (JSON text) that makes a grpc-js channel hedge calls of `service` (only its `method`
 * when given) as the options say: A6's field names, the delay as a duration string.
 */
export function grpcServiceConfig(
  service: string,
  hedging: GrpcHedgingOptions,
  throttling: RetryThrottlingOptions | undefined,
  method?: string,
): string {
  const hedgingPolicy = {
    maxAttempts: hedging.maxAttempts,
    hedgingDelay: `${(hedging.hedgingDelayMs / 1000).toFixed(6).replace(/\.?0+$/, '')}s`,
    nonFatalStatusCodes: (hedging.nonFatalStatusCodes ?? []).map((c) => grpcStatusCode(c)!),
  };
  return JSON.stringify({
    methodConfig: [{ name: [method === undefined ? { service } : { service, method }], hedgingPolicy }],
    ...(throttling === undefined ? {} : { retryThrottling: { ...throttling } }),
  });
}
