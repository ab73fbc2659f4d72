// The Redis key names of one point of one run: the calls and attempts streams and the status hash (one per
// load generator when K of them share the point), and the start barrier of K load generators.
// Writers (load generator, target server) and the drain must agree on them, so they have one home.

/** Redis keys of one point of one run. Streams hold one field `r` = a CSV line in *_FIELDS order. */
export function redisKeys(run: string, slug: string) {
  const base = `hb:${run}:${slug}`;
  const status = `${base}:status`;
  return {
    calls: `${base}:calls`,
    attempts: `${base}:attempts`,
    /** Hash: state (running|done|failed), sent, completed, inflight, p99_ms, send_lag_p99_ms, heartbeat_ms, error, summary (JSON). */
    status,
    /** The status hash of load generator `client` of `clients`; the point's one `status` when it has one. */
    clientStatus: (client: number, clients: number): string =>
      clients === 1 ? status : `${status}:${client}`,
    /** K > 1: how many load generators are ready to send (INCR); the last one to arrive opens the barrier. */
    ready: `${base}:ready`,
    /** K > 1: the list the last ready load generator pushes K − 1 tokens to; the others BLPOP one each. */
    go: `${base}:go`,
  };
}

/** Every key a point of `clients` load generators may leave in Redis (for the drain's DEL and EXISTS). */
export function pointRedisKeys(run: string, slug: string, clients = 1): string[] {
  const k = redisKeys(run, slug);
  if (clients === 1) return [k.calls, k.attempts, k.status];
  const statuses = Array.from({ length: clients }, (_, i) => k.clientStatus(i, clients));
  return [k.calls, k.attempts, ...statuses, k.ready, k.go];
}
