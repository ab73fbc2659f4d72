// The target's tied-requests wiring: the point's ServerTies (tied-copies.ts) while the point is tied, the peer
// cancels it sends to its siblings' servers (peer-cancel-client.ts, at the URLs PUT /config gave), its pool's
// removal of a queued copy, and the record of a copy dropped on arrival. An untied point has none of it.

import { attemptLine, tiedAttemptCells } from '../contract/index.ts';
import type { AttemptPool } from './attempt-pool.ts';
import type { ServerConfig } from './config.ts';
import { PeerCancelClient } from './peer-cancel-client.ts';
import { throttledLog } from './throttled-log.ts';
import {
  type DroppedCopy,
  type PeerCancelOutcome,
  type PeerCancelStats,
  ServerTies,
  TiedCopy,
} from './tied-copies.ts';

/** The tied side of one target server. */
export class TargetTies {
  /** The point's ties; null while the point is not tied. */
  ties: ServerTies | null = null;
  private client: PeerCancelClient | null = null;
  private peers: readonly string[] = [];
  private readonly idle = new ServerTies(
    () => {},
    () => {},
  );
  private readonly log: (message: string) => void;

  constructor(
    private readonly pool: AttemptPool,
    /** The run's token: every target of a run has the same, so it opens their /peer-cancel too. */
    private readonly token: string | null,
    log: (message: string) => void,
  ) {
    this.log = throttledLog(log);
  }

  /**
   * Follows PUT /config: tied (its copies > 0) with these peers, or not. What the last point's cancels left is
   * forgotten; the counters stay until POST /reset, so the orchestrator reads them after stopping the recording.
   */
  configure(cfg: ServerConfig): void {
    this.peers = cfg.peers;
    this.ties =
      cfg.tiedCopies > 0
        ? (this.ties ??
          new ServerTies(
            (replica, call, attempt) => this.send(replica, call, attempt),
            (ticket) => this.pool.peerCancel(ticket),
          ))
        : null;
    this.ties?.forget();
    if (this.ties === null) return;
    for (const [r, peer] of cfg.peers.entries()) if (r !== cfg.replica) this.peerClient().warm(peer);
  }

  /** A copy arrives: its tie, or the cancel that dropped it; null on an untied point. */
  arrive(call: number, attempt: number, peers: readonly number[]): TiedCopy | DroppedCopy | null {
    return this.ties === null ? null : this.ties.arrive(call, attempt, peers);
  }

  /** A cancel from a sibling's server arrived at `atMs` (epoch). */
  receive(call: number, from: number, atMs: number): PeerCancelOutcome {
    // Not tied (a late cancel of the previous point, or a stray): nothing here to cancel.
    return this.ties === null ? 'ignored' : this.ties.receive(call, from, atMs);
  }

  /** POST /reset: the counters and memory start again. */
  reset(): void {
    this.ties?.reset();
  }

  /** GET /stats `peerCancel` (zeros while not tied). */
  stats(): PeerCancelStats {
    return { ...(this.ties ?? this.idle).stats };
  }

  /** Closes the connections to the peers. */
  async close(): Promise<void> {
    await this.client?.close();
    this.client = null;
  }

  private send(replica: number, call: number, attempt: number): void {
    this.peerClient().send(this.peers[replica]!, call, attempt);
  }

  private peerClient(): PeerCancelClient {
    this.client ??= new PeerCancelClient(this.token, (peer, reason) => {
      this.ties?.failed();
      this.log(`peer cancel to ${peer} failed (${reason}); counted in /stats peerCancel.failed`);
    });
    return this.client;
  }
}

export { TiedCopy };

/**
 * The record of a copy dropped on arrival (a sibling's cancel came first): never queued, so it ended
 * cancelled while queued the instant it arrived (`nowMs`), with the cancel's arrival and fate `dropped`.
 */
export function droppedAttemptLine(
  cfg: ServerConfig,
  call: number,
  attempt: number,
  nowMs: number,
  intendedMs: number,
  respondedMs: number,
  arrivedMs: number,
): string {
  const cells = tiedAttemptCells({ sentMs: Number.NaN, arrivedMs, fate: 'dropped', decidedMs: arrivedMs });
  return attemptLine(
    call,
    attempt,
    nowMs,
    Number.NaN,
    nowMs,
    'cancelled-queued',
    -1,
    intendedMs,
    respondedMs,
    cfg.replica,
    cells,
  );
}
