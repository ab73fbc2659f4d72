// A point's transport, built from its options: gRPC to one target (grpc-js hedging by itself when the
// configuration says so), or HTTP/1.1 to the target and each replica, the replicas seen as one.

import type { Operation, Pipeline } from '../library/index.ts';
import { grpcServiceConfig, peerCancelCopies } from '../model/index.ts';
import { GRPC_SERVICE } from '../runtime/index.ts';
import { createGrpcTransport } from './grpc-transport.ts';
import { createTransport, type Transport, type TransportOptions } from './http-transport.ts';
import type { ResolvedOptions } from './loadgen-options.ts';
import { createReplicaTransport, type ReplicaTransport } from './replica-transport.ts';
import type { TiedTag } from './tied-tags.ts';

/** What every transport of the point reports to the point (its clock and its write and failure hooks). */
export type PointTransportHooks = Required<
  Pick<TransportOptions, 'serverTiming' | 'now' | 'onWritten' | 'onFailed' | 'readPushback'>
>;

/** The point's transport: every replica's as one (`transport`), and the per-replica view when R > 1. */
interface PointTransport {
  transport: Transport;
  replicas: ReplicaTransport | null;
}

/**
 * Builds the transport for `o`'s `R` targets; `onServed` gets, under grpc-js hedging, the attempt the
 * server says it served.
 */
export function createPointTransport(
  o: ResolvedOptions,
  R: number,
  common: PointTransportHooks,
  onServed: (call: number, attempt: number) => void,
): PointTransport {
  const g = o.config.grpcHedging;
  if (o.transport === 'grpc') {
    return {
      replicas: null,
      transport: createGrpcTransport({
        ...common,
        address: o.grpcTarget!,
        // grpc-js hedges by itself from the channel's service config; no hedgebench policy runs.
        ...(g === undefined
          ? {}
          : { serviceConfig: grpcServiceConfig(GRPC_SERVICE, g, o.config.retryThrottling, 'Work') }),
        onServed,
      }),
    };
  }
  const parts = [o.target, ...o.replicaTargets].map((target) =>
    createTransport({
      ...common,
      target,
      path: o.path,
      // Never fewer connections than attempts allowed in flight: undici then never queues (http-transport.ts).
      connections: o.maxInflight,
      // A tied copy its sibling's server cancelled is answered 410: the call waits for the copy that runs.
      tied: peerCancelCopies(o.config) > 0,
    }),
  );
  const replicas = R > 1 ? createReplicaTransport(parts) : null;
  return { replicas, transport: replicas ?? parts[0] };
}

/**
 * The pipeline's call over the point's transport: to the one target, or to the replica the balancer chose for
 * each attempt; a tied point's copies also name their siblings' replicas (`tag`, tied-tags.ts).
 */
export function pointCall(pipe: Pipeline, pt: PointTransport, tag: TiedTag | null): Operation<number> {
  const { transport, replicas } = pt;
  if (replicas === null)
    return pipe.compose<number>((cs, attempt, done) => transport.send(cs.call, attempt, done));
  if (tag === null)
    return pipe.compose<number>((cs, attempt, done) =>
      replicas.sendVia(cs.replicas![attempt], cs.call, attempt, done),
    );
  return pipe.compose<number>((cs, attempt, done) =>
    replicas.sendVia(cs.replicas![attempt], cs.call, attempt, done, tag(cs.call, attempt, cs.replicas!)),
  );
}
