// The gRPC wire of the target: the service `hedgebench.Target` with two unary methods, defined by hand
// with JSON serializers so neither side needs protoc or a .proto loader at run time (runtime/target.proto
// documents the same messages). `Work` is one attempt of one call; `Ping` answers at once (the warm-up).

import type { ServiceDefinition } from '@grpc/grpc-js';

/** The package-qualified service name, as it appears in paths and service configs. */
export const GRPC_SERVICE = 'hedgebench.Target';
/** The method paths; a server without them answers UNIMPLEMENTED. */
export const GRPC_WORK_PATH = `/${GRPC_SERVICE}/Work`;
export const GRPC_PING_PATH = `/${GRPC_SERVICE}/Ping`;

/** What the server measured for the attempt that answered. */
export interface WorkReply {
  queueMs: number;
  serviceMs: number;
  worker: number;
  intendedMs: number;
  /** The attempt number the server took this one for. */
  attempt: number;
}

/** The metadata key grpc-js puts on hedges and retries: how many attempts were sent before this one. */
export const PREVIOUS_ATTEMPTS_KEY = 'grpc-previous-rpc-attempts';

const toJson = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));
const fromJson = (b: Buffer): unknown => JSON.parse(b.toString('utf8'));

function unary(path: string) {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: toJson,
    requestDeserialize: fromJson,
    responseSerialize: toJson,
    responseDeserialize: fromJson,
  } as const;
}

/** The service definition both the server (addService) and the clients (makeUnaryRequest) use. */
export const TARGET_SERVICE = {
  Work: unary(GRPC_WORK_PATH),
  Ping: unary(GRPC_PING_PATH),
} satisfies ServiceDefinition;

/** JSON (de)serializers of a unary call, for Client.makeUnaryRequest. */
export const grpcJson = { serialize: toJson, deserialize: fromJson };
