// The peer cancels a target server sends: when it starts a tied copy, `POST /peer-cancel?call=N&attempt=K`
// to the server of each sibling (docs/replicas.md, "Tied requests"), over keep-alive HTTP/1.1 connections (one
// undici Pool per peer), with the run's bearer token — every target of a run has the same one. Fire and forget:
// nothing waits for the answer, so a worker never waits for the network; a cancel that fails (no connection,
// a timeout, a status other than 2xx) is counted and logged (throttled), never fatal.

import { Pool } from 'undici';

/** Peer cancels that cannot connect within this fail, ms (a down peer; undici's timers are coarse). */
const PEER_CONNECT_TIMEOUT_MS = 2_000;
/** … or get no answer within this, ms. */
const PEER_ANSWER_TIMEOUT_MS = 5_000;
/**
 * Connections to each peer: a cancel waits for a free one (undici pipelines no POST), and while either event
 * loop stalls every connection in use stays busy, so there are enough for a burst of starts.
 */
const CONNECTIONS_PER_PEER = 16;

/** Sends peer cancels; `onFailed` gets why each failed one did. */
export class PeerCancelClient {
  private readonly pools = new Map<string, Pool>();
  private readonly headers: Record<string, string>;
  private closed = false;

  constructor(
    token: string | null,
    private readonly onFailed: (peer: string, reason: string) => void,
  ) {
    this.headers = token === null ? {} : { authorization: `Bearer ${token}` };
  }

  /** Tells the server at `peer` (http://HOST:PORT) that attempt `attempt` of call `call` started here. */
  send(peer: string, call: number, attempt: number): void {
    if (this.closed) {
      this.onFailed(peer, 'server closing');
      return;
    }
    this.poolOf(peer)
      .request({
        method: 'POST',
        path: `/peer-cancel?call=${call}&attempt=${attempt}`,
        headers: this.headers,
      })
      .then(
        async (res) => {
          // Read to the end, so the connection carries the next cancel.
          await res.body.dump();
          if (res.statusCode < 200 || res.statusCode > 299) this.onFailed(peer, `HTTP ${res.statusCode}`);
        },
        (err: Error & { code?: string }) => this.onFailed(peer, err.code ?? err.name),
      );
  }

  /**
   * Opens a connection to `peer` now (GET /health), so the point's first cancel does not wait for a connect;
   * a peer not up yet costs nothing (its first cancel connects then).
   */
  warm(peer: string): void {
    if (this.closed) return;
    this.poolOf(peer)
      .request({ method: 'GET', path: '/health' })
      .then(
        (res) => res.body.dump(),
        () => {},
      );
  }

  /** Closes every connection; cancels still on their way fail (and are counted). */
  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => {})));
  }

  private poolOf(peer: string): Pool {
    let pool = this.pools.get(peer);
    if (pool === undefined) {
      pool = new Pool(peer, {
        connections: CONNECTIONS_PER_PEER,
        pipelining: 1,
        keepAliveTimeout: 60_000,
        connectTimeout: PEER_CONNECT_TIMEOUT_MS,
        headersTimeout: PEER_ANSWER_TIMEOUT_MS,
        bodyTimeout: PEER_ANSWER_TIMEOUT_MS,
      });
      this.pools.set(peer, pool);
    }
    return pool;
  }
}
