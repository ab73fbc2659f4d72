// The Redis key names of one point of one run: the calls and attempts streams and the status hash.
// Writers (load generator, target server) and the drain must agree on them, so they have one home.

/** Redis keys of one point of one run. Streams hold one field `r` = a CSV line in *_FIELDS order. */
export function redisKeys(run: string, slug: string) {
  const base = `hb:${run}:${slug}`;
  return {
    calls: `${base}:calls`,
    attempts: `${base}:attempts`,
    /** Hash: state (running|done|failed), sent, completed, inflight, p99_ms, send_lag_p99_ms, heartbeat_ms, error, summary (JSON). */
    status: `${base}:status`,
  };
}
