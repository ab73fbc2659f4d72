// GET /work on node:http directly: the one route that carries the load. Every other route stays in the
// express app. Why: on this 2-core VM express cost ~500 µs of CPU per request at 1 000 req/s (router,
// res.json, header helpers, their garbage), the target's main thread ran at 0.6–0.8 of a core at load 0.95,
// and that CPU queueing — not the model — was the tail of every response (bench/RESULTS.md, "The target
// server").
// Behaviour is the express route's: same parameters, same errors (JSON, codes), same cancellation.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatPushbackMs, formatWorkReply, PUSHBACK_HEADER } from '../contract/index.ts';
import type { PoolTicket } from '../model/index.ts';
import { MAX_ATTEMPT, MAX_CALL, parseIndex } from './config.ts';
import { ModelFailureResponse, TargetServerError } from './errors.ts';
import type { Target } from './target.ts';

/** True when the request is GET /work?… (the fast path takes it); everything else goes to express. */
export function isWorkRequest(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  return req.method === 'GET' && (url === '/work' || url.startsWith('/work?'));
}

/** Serves one attempt: queue it in the pool, answer when it is served, cancel it when the client goes. */
export function serveWork(target: Target, req: IncomingMessage, res: ServerResponse): void {
  target.countClient(req.socket.remoteAddress);
  const q = new URLSearchParams((req.url ?? '').slice(6));
  let call: number;
  let attempt: number;
  try {
    call = parseIndex(param(q, 'call'), 'call', 0, MAX_CALL);
    attempt = parseIndex(param(q, 'attempt'), 'attempt', 1, MAX_ATTEMPT);
  } catch (err) {
    target.countBadRequest();
    sendError(res, err);
    return;
  }
  // A request body on GET /work is not read; drain it so the connection can carry the next request.
  req.resume();
  let ticket: PoolTicket;
  try {
    ticket = target.submit(call, attempt, (r) => {
      if (res.writableEnded || res.destroyed) return Number.NaN;
      if (r instanceof TargetServerError) {
        sendError(res, r);
        return Number.NaN;
      }
      // In `ignore` mode an aborted attempt still ends 'served' (or 'failed'); its client is gone, so nothing is sent.
      if (r.ended !== 'served' && r.ended !== 'failed') return Number.NaN;
      // Read just before the write: once the bytes are on the socket the client (on another core) may
      // read them before this thread reads the clock again, and a later reading would make transit negative.
      const respondedMs = target.clock.now();
      // The model failed it: an ordinary 503 with the error's JSON body, after the worker held errorMs.
      if (r.ended === 'failed') sendJson(res, 503, MODEL_FAILURE_BODY, r.pushbackMs);
      else sendJson(res, 200, formatWorkReply(r), r.pushbackMs);
      return respondedMs;
    });
  } catch (err) {
    sendError(res, err);
    return;
  }
  // The client aborting (undici AbortSignal) closes the response before it finished: that is the cancel
  // (the pool counts it when the attempt is still queued or in service).
  const onClose = (): void => {
    if (!res.writableFinished) ticket.cancel();
  };
  if (res.destroyed || req.socket.destroyed) onClose();
  else res.on('close', onClose);
}

// A parameter given twice is a list, which parseIndex refuses, as express's query parser made it.
function param(q: URLSearchParams, name: string): string | string[] | undefined {
  const all = q.getAll(name);
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
}

// A known error answers with its status and code; anything else is a 500, as in the express app.
function sendError(res: ServerResponse, err: unknown): void {
  const e = err instanceof TargetServerError ? err : null;
  const body = e?.toJSON() ?? { error: { code: 'HB_INTERNAL', message: String(err) } };
  sendJson(res, e?.status ?? 500, JSON.stringify(body));
}

// The body of every model failure: the same bytes each time, made once.
const MODEL_FAILURE_BODY = JSON.stringify(new ModelFailureResponse().toJSON());

// `pushbackMs` > 0 adds the pushback header (contract/work-reply.ts); otherwise the headers are as always.
function sendJson(res: ServerResponse, status: number, body: string, pushbackMs = 0): void {
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  };
  if (pushbackMs > 0) headers[PUSHBACK_HEADER] = formatPushbackMs(pushbackMs);
  res.writeHead(status, headers);
  res.end(body);
}
