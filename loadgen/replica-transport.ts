// One transport per replica, seen as one where the point needs totals (attempts in flight, connections,
// probe, destroy). An attempt goes to the replica the pipeline's balancer wrote into its call state.

import type { AttemptOutcome, CancelAttempt, Transport } from './http-transport.ts';

/** The replicas' transports as one, plus a send to a chosen replica. */
export interface ReplicaTransport extends Transport {
  /** Starts attempt `attempt` of call `call` on replica `replica` (`query` added to its request's, if given). */
  sendVia(
    replica: number,
    call: number,
    attempt: number,
    done: (o: AttemptOutcome) => void,
    query?: string,
  ): CancelAttempt;
  /** Attempts in flight to each replica. */
  inflightByReplica(): number[];
}

/** Combines per-replica transports (replica r = parts[r]). */
export function createReplicaTransport(parts: readonly Transport[]): ReplicaTransport {
  // The warm-up's requests take turns, so every replica's connections are open before t0.
  let turn = 0;
  const sum = (f: (t: Transport) => number) => parts.reduce((n, t) => n + f(t), 0);
  return {
    sendVia: (replica, call, attempt, done, query) => parts[replica].send(call, attempt, done, query),
    send: (call, attempt, done, query) => parts[0].send(call, attempt, done, query),
    sendTo: (path, done) => parts[turn++ % parts.length].sendTo(path, done),
    get inflight() {
      return sum((t) => t.inflight);
    },
    get unwritten() {
      return sum((t) => t.unwritten);
    },
    get peerCancelled() {
      return sum((t) => t.peerCancelled);
    },
    get connections() {
      return sum((t) => t.connections);
    },
    inflightByReplica: () => parts.map((t) => t.inflight),
    probe: async () => {
      await Promise.all(parts.map((t) => t.probe()));
    },
    destroy: async () => {
      await Promise.all(parts.map((t) => t.destroy()));
    },
  };
}
