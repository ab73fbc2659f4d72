// The gRPC listener of the target: `hedgebench.Target/Work` over HTTP/2 (grpc-js), beside the HTTP one and
// on the same Target (pool, records, metrics). One call = one attempt. Cancellation is the stream's reset
// (RST_STREAM): the call's `cancelled` event cancels the attempt's ticket, which in `propagate` mode frees
// the queue slot or worker and in `ignore` mode lets the work finish unanswered — as the HTTP route does.

import {
  type handleUnaryCall,
  Metadata,
  Server,
  ServerCredentials,
  type ServerErrorResponse,
  status,
} from '@grpc/grpc-js';
import { formatPushbackMs, PUSHBACK_HEADER } from '../contract/index.ts';
import type { PoolTicket } from '../model/index.ts';
import { PREVIOUS_ATTEMPTS_KEY, TARGET_SERVICE, type WorkReply } from '../runtime/index.ts';
import { MAX_ATTEMPT, MAX_CALL } from './config.ts';
import { BadParameterError, ModelFailureResponse, TargetServerError } from './errors.ts';
import type { Target } from './target-service.ts';

/** A listening gRPC server. */
export interface GrpcListener {
  /** `host:port` (what a gRPC client dials). */
  readonly address: string;
  readonly port: number;
  /** Stops accepting; cuts the streams still open after `graceMs`. */
  close(graceMs: number): Promise<void>;
}

/** Opens the gRPC listener on `host:port` (0 = any free port) for `target`. */
export async function listenGrpc(target: Target, host: string, port: number): Promise<GrpcListener> {
  // grpc-js's defaults never age a connection out: the load generator keeps one for a whole point.
  const server = new Server();
  server.addService(TARGET_SERVICE, {
    Work: ((call, callback) => serveGrpcWork(target, call, callback)) as handleUnaryCall<unknown, WorkReply>,
    Ping: ((_call, callback) => callback(null, {})) as handleUnaryCall<unknown, object>,
  });
  const hostPort = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const bound = await new Promise<number>((resolve, reject) => {
    server.bindAsync(hostPort, ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    );
  });
  const address = `${host.includes(':') ? `[${host}]` : host}:${bound}`;
  return {
    address,
    port: bound,
    close(graceMs) {
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}

type WorkCall = Parameters<handleUnaryCall<unknown, WorkReply>>[0];
type WorkCallback = Parameters<handleUnaryCall<unknown, WorkReply>>[1];

// One attempt: parse ids, queue it, answer when served, cancel the ticket when the stream is reset.
function serveGrpcWork(target: Target, call: WorkCall, callback: WorkCallback): void {
  target.countClient(peerAddress(call.getPeer()));
  let callIndex: number;
  let attempt: number;
  try {
    ({ call: callIndex, attempt } = parseWorkRequest(call.request, call.metadata));
  } catch (err) {
    target.countBadRequest();
    callback(grpcError(err));
    return;
  }
  let ticket: PoolTicket;
  let answered = false;
  try {
    ticket = target.submit(callIndex, attempt, (r) => {
      if (answered || call.cancelled) return Number.NaN;
      answered = true;
      if (r instanceof TargetServerError) {
        callback(grpcError(r));
        return Number.NaN;
      }
      // `ignore`: a cancelled attempt still ends 'served' (or 'failed'); its stream is gone, so nothing is sent.
      if (r.ended !== 'served' && r.ended !== 'failed') return Number.NaN;
      const respondedMs = target.clock.now();
      // Pushback travels as trailing metadata (contract/work-reply.ts), on an error as on a reply.
      const trailer = r.pushbackMs > 0 ? pushbackTrailer(r.pushbackMs) : undefined;
      if (r.ended === 'failed') {
        callback(modelFailure(trailer));
        return respondedMs;
      }
      const reply = {
        queueMs: r.queueMs,
        serviceMs: r.serviceMs,
        worker: r.worker,
        intendedMs: r.intendedMs,
        attempt,
      };
      if (trailer === undefined) callback(null, reply);
      else callback(null, reply, trailer);
      return respondedMs;
    });
  } catch (err) {
    callback(grpcError(err));
    return;
  }
  if (call.cancelled) ticket.cancel();
  else call.once('cancelled', () => ticket.cancel());
}

/**
 * The call index from the request, the attempt from the request or else from `grpc-previous-rpc-attempts`
 * + 1 (grpc-js sends the same message on every hedge and numbers them in this metadata only).
 */
function parseWorkRequest(request: unknown, metadata: Metadata): { call: number; attempt: number } {
  const body = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
  const callIndex = wholeNumber(body.call, 'call', 0, MAX_CALL);
  if (body.attempt !== undefined)
    return { call: callIndex, attempt: wholeNumber(body.attempt, 'attempt', 1, MAX_ATTEMPT) };
  const previous = metadata.get(PREVIOUS_ATTEMPTS_KEY)[0];
  if (previous === undefined) return { call: callIndex, attempt: 1 };
  const n = Number(previous);
  if (!/^\d{1,4}$/.test(String(previous)) || n + 1 > MAX_ATTEMPT) {
    throw new BadParameterError(
      PREVIOUS_ATTEMPTS_KEY,
      `metadata ${PREVIOUS_ATTEMPTS_KEY} must be a whole number in [0, ${MAX_ATTEMPT - 1}], got ${JSON.stringify(String(previous)).slice(0, 40)}`,
    );
  }
  return { call: callIndex, attempt: n + 1 };
}

function wholeNumber(v: unknown, name: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    const got = v === undefined ? 'nothing' : JSON.stringify(v)?.slice(0, 40);
    throw new BadParameterError(
      name,
      `WorkRequest.${name} must be a whole number in [${min}, ${max}], got ${got}; e.g. {"call":0,"attempt":1}`,
    );
  }
  return v;
}

// HTTP statuses of the target's errors, as gRPC codes: 400 → INVALID_ARGUMENT, 503 → RESOURCE_EXHAUSTED.
function grpcError(err: unknown): ServerErrorResponse {
  const e = err instanceof TargetServerError ? err : null;
  const code =
    e?.status === 400
      ? status.INVALID_ARGUMENT
      : e?.status === 503
        ? status.RESOURCE_EXHAUSTED
        : e?.status === 409
          ? status.FAILED_PRECONDITION
          : status.INTERNAL;
  const metadata = new Metadata();
  metadata.set('hedgebench-error-code', e?.code ?? 'HB_INTERNAL');
  return Object.assign(new Error(e?.message ?? String(err)), {
    code,
    details: `${e?.code ?? 'HB_INTERNAL'}: ${e?.message ?? String(err)}`,
    metadata,
  });
}

function pushbackTrailer(ms: number): Metadata {
  const m = new Metadata();
  m.set(PUSHBACK_HEADER, formatPushbackMs(ms));
  return m;
}

const MODEL_FAILURE = new ModelFailureResponse();

// The model's failure over gRPC: UNAVAILABLE (what a failing server answers, and A6's usual non-fatal
// code), with the error's code in metadata as the other errors have; pushback, when any, beside it.
function modelFailure(trailer: Metadata | undefined): ServerErrorResponse {
  const metadata = trailer ?? new Metadata();
  metadata.set('hedgebench-error-code', MODEL_FAILURE.code);
  return Object.assign(new Error(MODEL_FAILURE.message), {
    code: status.UNAVAILABLE,
    details: `${MODEL_FAILURE.code}: ${MODEL_FAILURE.message}`,
    metadata,
  });
}

// grpc-js gives the peer as `ipv4:127.0.0.1:1234` / `ipv6:[::1]:1234` (or host:port in older versions).
function peerAddress(peer: string): string {
  const s = peer.replace(/^ipv[46]:/, '');
  const m = /^\[(.*)\]:\d+$/.exec(s) ?? /^(.*):\d+$/.exec(s);
  return m ? m[1] : s;
}
