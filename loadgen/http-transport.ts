// The HTTP transport of the load generator: one undici request per attempt (`GET /work?call=i&attempt=k`)
// over keep-alive connections; cancelling an attempt aborts its request, so the server sees the close.
//
// Where send lag is measured: a request can wait before it is written — for a connection to open, or in
// the connection pool's queue — and a timestamp taken when it is handed over would hide that wait. We take
// it in the handler's onConnect callback, which undici calls synchronously right before it writes the
// request to its socket (client-h1 writeH1): the real write time. The pool (connection-pool.ts) opens as
// many connections as attempts in flight, so requests wait only while connections are being opened, at a
// bounded number at a time; that wait shows up as send lag instead of hiding.
// The legacy handler callbacks (onConnect/onHeaders/…) are used on purpose: undici passes them straight
// through, while the newer onRequestStart API adds a wrapper object and header parsing per response.

import { connect as netConnect } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { PUSHBACK_HEADER, parsePushbackMs, serverMsOfReply } from '../contract/index.ts';
import { ConnectionPool, type PooledHandler } from './connection-pool.ts';
import { AttemptFailedError, LoadgenConfigError, TargetUnreachableError } from './errors.ts';

/** Options of createTransport. */
export interface TransportOptions {
  /** `http://host:port`; only the origin is used. */
  target: string;
  /** Path of the work route, a query allowed (default `/work`); `call` and `attempt` are added to it. */
  path?: string;
  /** Most connections; set it ≥ the cap on attempts in flight so no request waits for one (default 20 000). */
  connections?: number;
  /** Most connections being opened at once (default 8). */
  maxConnecting?: number;
  /** A connection not established within this fails the attempt, ms (default 2 000). */
  connectTimeoutMs?: number;
  /** Response headers not received within this fail the attempt, ms (default 0 = only the point's wall bound). */
  headersTimeoutMs?: number;
  /** Parse the JSON reply and report the server's queueMs + serviceMs (costs CPU; default false). */
  serverTiming?: boolean;
  /** Clock of the write timestamps, ms (default performance.now). */
  now?: () => number;
  /** Called once per attempt at the moment its request is written (on `now`). */
  onWritten?: (call: number, attempt: number, atMs: number) => void;
  /** Called with the reason of every failed attempt (cancelled attempts are not failures). */
  onFailed?: (reason: string) => void;
  /**
   * Read each response's pushback header (`hedgebench-pushback-ms`, contract/work-reply.ts) into the outcome's
   * `pushbackMs` (default false: the header is not looked for, as when no budget honours pushback).
   */
  readPushback?: boolean;
  /**
   * A tied point (docs/replicas.md): a 410 answer (HB_PEER_CANCELLED) says a sibling's server cancelled this
   * copy; it is no outcome of the call's — `done` is not called and the pipeline waits for the copy that runs,
   * as the simulator's client does; the request is over, so a later cancel costs no connection (default false).
   */
  tied?: boolean;
}

/**
 * How an attempt ended: ok with the server-reported time (NaN unless serverTiming), or failed (any non-2xx:
 * the target's 503 for a failure of the model is an ordinary failure the winner rule sees). `pushbackMs`,
 * when the server sent one and `readPushback` is on: no hedges for this long, wall ms.
 */
export type AttemptOutcome =
  | { ok: true; value: number; pushbackMs?: number }
  | { ok: false; error: AttemptFailedError; pushbackMs?: number };

/** Cancels an attempt; its `done` is then never called. */
export type CancelAttempt = (reason?: unknown) => void;

/** Sends attempts to one target. */
export interface Transport {
  /**
   * Starts attempt `attempt` of call `call`; `done` is called once unless cancelled first (or, on a tied point,
   * cancelled by a sibling's server). `query`, when given, is added to the request's query (`&peers=1`).
   */
  send(call: number, attempt: number, done: (o: AttemptOutcome) => void, query?: string): CancelAttempt;
  /** Like send, to another route of the target (`GET path`), not reported to onWritten: the warm-up. */
  sendTo(path: string, done: (o: AttemptOutcome) => void): CancelAttempt;
  /** Attempts started and not yet ended or cancelled. */
  readonly inflight: number;
  /** Attempts cancelled before their request was written (e.g. a hedge whose connection was still opening). */
  readonly unwritten: number;
  /** Tied copies a sibling's server cancelled (their 410 answers; 0 on other points). */
  readonly peerCancelled: number;
  /** Connections opened so far. */
  readonly connections: number;
  /** Resolves once a TCP connection to the target succeeds; rejects with TargetUnreachableError. */
  probe(): Promise<void>;
  /** Cuts every connection at once. */
  destroy(): Promise<void>;
}

// One shared reason for aborting losers: a loser is cancelled on every hedged call, and an Error per
// cancel would capture a stack trace each time for nothing.
const CANCELLED = new AttemptFailedError('cancelled');

/** A transport over a ConnectionPool to `options.target`. */
export function createTransport(options: TransportOptions): Transport {
  const url = parseTarget(options.target);
  const origin = url.origin;
  const path = options.path ?? '/work';
  // A foreign service's URL may carry a query of its own: the call and attempt numbers join it.
  const sep = path.includes('?') ? '&' : '?';
  const connectTimeoutMs = options.connectTimeoutMs ?? 2_000;
  const serverTiming = options.serverTiming ?? false;
  const onWritten = options.onWritten;
  const onFailed = options.onFailed;
  const readPushback = options.readPushback ?? false;
  const tied = options.tied ?? false;
  const now = options.now ?? (() => performance.now());
  const pool = new ConnectionPool({
    origin,
    maxConnections: options.connections ?? 20_000,
    maxConnecting: options.maxConnecting,
    connectTimeoutMs,
    headersTimeoutMs: options.headersTimeoutMs ?? 0,
  });
  const state = { inflight: 0, unwritten: 0, peerCancelled: 0 };

  class AttemptHandler implements PooledHandler {
    conn: unknown = null;
    ended = false;
    readonly opts: Dispatcher.DispatchOptions;
    private abort: ((err?: Error) => void) | null = null;
    private written = false;
    private status = 0;
    private pushbackMs: number | undefined = undefined;
    private readonly chunks: Buffer[] | null = serverTiming ? [] : null;

    constructor(
      readonly call: number,
      readonly attempt: number,
      requestPath: string,
      readonly done: (o: AttemptOutcome) => void,
    ) {
      this.opts = { origin, path: requestPath, method: 'GET' };
    }

    onConnect(abort: (err?: Error) => void): void {
      if (this.ended) {
        // Cancelled while its connection was opening: never write it.
        abort(CANCELLED);
        return;
      }
      this.abort = abort;
      if (!this.written) {
        this.written = true;
        if (this.call >= 0) onWritten?.(this.call, this.attempt, now());
      }
    }

    onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
      this.status = statusCode;
      if (readPushback) this.pushbackMs = pushbackOf(rawHeaders);
      return true;
    }

    onData(chunk: Buffer): boolean {
      this.chunks?.push(chunk);
      return true;
    }

    onComplete(): void {
      pool.release(this);
      if (this.ended) return;
      this.end();
      if (tied && this.status === 410) {
        state.peerCancelled++;
        return;
      }
      if (this.status < 200 || this.status > 299) {
        this.fail(`HTTP ${this.status}`);
        return;
      }
      const value = this.chunks === null ? Number.NaN : serverMs(this.chunks);
      const pushbackMs = this.pushbackMs;
      this.done(pushbackMs === undefined ? { ok: true, value } : { ok: true, value, pushbackMs });
    }

    onError(err: Error): void {
      // undici calls this from inside its connect-error loop, which then asserts that no request was added
      // to the client meanwhile (an uncaught AssertionError ended a collapsing point's generator). Releasing
      // the connection may hand it the next waiting request, and ending the attempt may start a hedge: both
      // wait until that loop is over.
      queueMicrotask(() => {
        pool.release(this);
        if (this.ended) return;
        this.end();
        this.fail((err as { code?: string }).code ?? err.name, err);
      });
    }

    onUpgrade(): void {}

    cancel(): void {
      if (this.ended) return;
      this.end();
      if (!this.written && this.call >= 0) state.unwritten++;
      // Written: abort (undici then calls onError, which releases the connection). Not yet written: the
      // pool skips it, or onConnect aborts it once its connection is open.
      this.abort?.(CANCELLED);
    }

    private end(): void {
      this.ended = true;
      state.inflight--;
    }

    private fail(reason: string, cause?: Error): void {
      onFailed?.(reason);
      const error = new AttemptFailedError(reason, cause === undefined ? undefined : { cause });
      const pushbackMs = this.pushbackMs;
      this.done(pushbackMs === undefined ? { ok: false, error } : { ok: false, error, pushbackMs });
    }
  }

  const start = (call: number, attempt: number, p: string, done: (o: AttemptOutcome) => void) => {
    const h = new AttemptHandler(call, attempt, p, done);
    state.inflight++;
    pool.dispatch(h);
    // An anonymous arrow: a named function made per attempt costs a defineProperty under tsx (keepNames).
    return () => h.cancel();
  };

  return {
    send: (call, attempt, done, query) =>
      start(call, attempt, `${path}${sep}call=${call}&attempt=${attempt}${query ?? ''}`, done),
    sendTo: (p, done) => start(-1, 0, p, done),
    get inflight() {
      return state.inflight;
    },
    get unwritten() {
      return state.unwritten;
    },
    get peerCancelled() {
      return state.peerCancelled;
    },
    get connections() {
      return pool.connections;
    },
    probe: () => probeTcp(url, connectTimeoutMs, options.target),
    destroy: () => pool.destroy(),
  };
}

/** Parses and checks --target: an http:// URL with a host and a port. */
export function parseTarget(target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch (err) {
    throw new LoadgenConfigError(`--target ${JSON.stringify(target)} is not a URL; use http://HOST:PORT`, {
      cause: err,
    });
  }
  if (url.protocol !== 'http:') {
    throw new LoadgenConfigError(
      `--target ${JSON.stringify(target)} uses ${url.protocol}; only http:// is supported (HTTP/1.1 keep-alive)`,
    );
  }
  return url;
}

function probeTcp(url: URL, timeoutMs: number, target: string): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port === '' ? 80 : Number(url.port);
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

// The pushback header among undici's raw headers (name, value, name, value …), or undefined.
function pushbackOf(rawHeaders: Buffer[]): number | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === PUSHBACK_HEADER.length && name.toString('latin1').toLowerCase() === PUSHBACK_HEADER) {
      return parsePushbackMs(rawHeaders[i + 1]!.toString('latin1'));
    }
  }
  return undefined;
}

// The target's reply (contract/work-reply.ts): the time the server accounts for is queueMs + serviceMs.
function serverMs(chunks: Buffer[]): number {
  return serverMsOfReply(Buffer.concat(chunks).toString('utf8'));
}
