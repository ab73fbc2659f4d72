// The gRPC transport of the load generator: one unary `hedgebench.Target/Work` call per attempt, every
// call on one grpc-js channel (one HTTP/2 connection). Cancelling an attempt cancels its call, which resets
// its stream (RST_STREAM); the connection stays, unlike HTTP/1.1 where an abort costs the socket.
//
// With a service config (`hedger: "grpc-js"`) the channel hedges by itself: one send() is then one call of
// many attempts, which grpc-js numbers in `grpc-previous-rpc-attempts`; the server replies with the
// attempt it served, passed to onServed.
//
// Send time: grpc-js writes a call's stream after its asynchronous pick, with no hook at the write; the
// time taken here is the handover to the channel (a lower bound on the write time).

import { connect as netConnect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { PUSHBACK_HEADER, parsePushbackMs } from '../contract/index.ts';
import { GRPC_PING_PATH, GRPC_SERVICE, GRPC_WORK_PATH, grpcJson, type WorkReply } from '../runtime/index.ts';
import {
  AttemptFailedError,
  LoadgenConfigError,
  TargetUnreachableError,
  WrongGrpcServiceError,
} from './errors.ts';
import type { AttemptOutcome, Transport } from './http-transport.ts';

/** Options of createGrpcTransport. */
interface GrpcTransportOptions {
  /** `host:port` of the target's gRPC listener. */
  address: string;
  /** A service config (JSON) for the channel: grpc-js then hedges each call itself. */
  serviceConfig?: string;
  /** Report the server's queueMs + serviceMs as the attempt's value (default false: NaN). */
  serverTiming?: boolean;
  connectTimeoutMs?: number;
  now?: () => number;
  /** Called once per attempt as it is handed to the channel (grpc-js hedges: once per call). */
  onWritten?: (call: number, attempt: number, atMs: number) => void;
  onFailed?: (reason: string) => void;
  /** Called with the attempt number the server says it served (grpc-js numbers its hedges itself). */
  onServed?: (call: number, attempt: number) => void;
  /** Read each call's trailing `hedgebench-pushback-ms` into the outcome's `pushbackMs` (default false). */
  readPushback?: boolean;
}

/** A gRPC transport over one channel to `options.address`. */
export function createGrpcTransport(options: GrpcTransportOptions): Transport {
  const { host, port } = parseGrpcAddress(options.address);
  const now = options.now ?? (() => performance.now());
  const serverTiming = options.serverTiming ?? false;
  const { onWritten, onFailed, onServed } = options;
  const readPushback = options.readPushback ?? false;
  const hedgedByChannel = options.serviceConfig !== undefined;
  const client = new Client(options.address, credentials.createInsecure(), {
    ...(hedgedByChannel ? { 'grpc.service_config': options.serviceConfig, 'grpc.enable_retries': 1 } : {}),
  });
  const state = { inflight: 0, unwritten: 0 };

  const start = (
    path: string,
    request: object,
    call: number,
    attempt: number,
    done: (o: AttemptOutcome) => void,
  ) => {
    let ended = false;
    // With readPushback: a reply waiting for its trailers (the 'status' event below).
    let replied: { value: number } | null = null;
    state.inflight++;
    if (call >= 0) onWritten?.(call, attempt, now());
    const c = client.makeUnaryRequest(
      path,
      grpcJson.serialize,
      grpcJson.deserialize,
      request,
      // A Metadata per call: one shared by every call kept grpc-js's cancel from resetting the stream.
      new Metadata(),
      {},
      (err: ServiceError | null, reply?: unknown) => {
        if (ended) return;
        ended = true;
        state.inflight--;
        if (err) {
          const reason = failureReason(err);
          onFailed?.(reason);
          // A failure of the model arrives as UNAVAILABLE: an ordinary failure, its status in grpcCode.
          const error = Object.assign(new AttemptFailedError(reason, { cause: err }), { grpcCode: err.code });
          const pushbackMs = readPushback ? pushbackOf(err.metadata) : undefined;
          done(pushbackMs === undefined ? { ok: false, error } : { ok: false, error, pushbackMs });
          return;
        }
        const r = reply as WorkReply;
        if (call >= 0 && typeof r?.attempt === 'number') onServed?.(call, r.attempt);
        const value = serverTiming ? r.queueMs + r.serviceMs : Number.NaN;
        // A reply's trailers come with the 'status' event, which grpc-js emits right after this callback.
        if (readPushback) replied = { value };
        else done({ ok: true, value });
      },
    );
    if (readPushback) {
      c.on('status', (st: { metadata?: Metadata }) => {
        if (replied === null) return; // a failure (answered above) or a cancel
        const { value } = replied;
        replied = null;
        const pushbackMs = st.metadata === undefined ? undefined : pushbackOf(st.metadata);
        done(pushbackMs === undefined ? { ok: true, value } : { ok: true, value, pushbackMs });
      });
    }
    return (): void => {
      if (ended) return;
      ended = true;
      state.inflight--;
      c.cancel();
    };
  };

  return {
    // The channel numbers its own attempts: the request then carries no attempt number.
    send: (call, attempt, done) =>
      start(GRPC_WORK_PATH, hedgedByChannel ? { call } : { call, attempt }, call, attempt, done),
    // The warm-up: Ping answers at once and never touches the pool.
    sendTo: (_path, done) => start(GRPC_PING_PATH, {}, -1, 0, done),
    get inflight() {
      return state.inflight;
    },
    get unwritten() {
      return state.unwritten;
    },
    // Tied points run over HTTP/1.1 only (contract/point-spec.ts).
    peerCancelled: 0,
    // One channel, one connection (grpc-js reconnects it if it drops).
    get connections() {
      return 1;
    },
    probe: async () => {
      const timeoutMs = options.connectTimeoutMs ?? 2_000;
      await probeTcp(host, port, timeoutMs, options.address);
      await probeService(client, timeoutMs, options.address);
    },
    destroy: async () => client.close(),
  };
}

// The pushback in a call's trailing metadata (contract/work-reply.ts), or undefined.
function pushbackOf(metadata: Metadata | undefined): number | undefined {
  const v = metadata?.get(PUSHBACK_HEADER);
  return v === undefined || v.length === 0 ? undefined : parsePushbackMs(String(v[0]));
}

/** Why an attempt failed, short enough to count: the status name, and what to fix when it is the wrong service. */
function failureReason(err: ServiceError): string {
  if (err.code === status.UNIMPLEMENTED) {
    return `gRPC UNIMPLEMENTED: the target does not serve ${GRPC_WORK_PATH} (service ${GRPC_SERVICE}); point --grpc-target at a hedgebench target's gRPC port`;
  }
  return `gRPC ${status[err.code] ?? err.code}`;
}

/** Parses `host:port` (or `[v6]:port`); throws LoadgenConfigError naming the flag. */
export function parseGrpcAddress(address: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(address);
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port < 1 || port > 65535) {
    throw new LoadgenConfigError(
      `--grpc-target ${JSON.stringify(address)} is not HOST:PORT; give the target's gRPC listener, e.g. 127.0.0.1:50051`,
    );
  }
  return { host: m[1] ?? m[2]!, port };
}

// One Ping before the point: a listener that is not hedgebench's target fails here, naming what was expected.
function probeService(client: Client, timeoutMs: number, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      GRPC_PING_PATH,
      grpcJson.serialize,
      grpcJson.deserialize,
      {},
      new Metadata(),
      { deadline: Date.now() + timeoutMs },
      (err: ServiceError | null) => {
        if (err === null) resolve();
        else if (err.code === status.UNIMPLEMENTED)
          reject(new WrongGrpcServiceError(address, err.details, { cause: err }));
        else reject(new TargetUnreachableError(address, { cause: err }));
      },
    );
  });
}

function probeTcp(host: string, port: number, timeoutMs: number, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port });
    const fail = (cause: unknown) => {
      socket.destroy();
      reject(new TargetUnreachableError(target, { cause }));
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`no connection within ${timeoutMs} ms`)));
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
  });
}
