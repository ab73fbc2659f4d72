// GET /work on node:http directly: the route that carries the load (POST /peer-cancel, as frequent on a tied
// point, is the other one: peer-cancel-route.ts). Every other route stays in the express app. Why: express
// costs CPU on every request (router, res.json, header helpers, their garbage), which at the study's loads
// keeps the target's main thread busy enough that its CPU queueing — not the model — becomes the tail of every
// response (bench/RESULTS.md, "The target's main thread: node:http against express").
// Behaviour is the express route's: same parameters, same errors (JSON, codes), same cancellation. A tied
// point's copy also names its siblings' replicas (`peers=1,3`), and one a sibling's server cancelled is answered 410.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatWorkReply } from '../contract/index.ts';
import type { PoolTicket } from '../model/index.ts';
import { MAX_ATTEMPT, MAX_CALL, parseIndex } from './config.ts';
import {
  BadParameterError,
  ModelFailureResponse,
  PeerCancelledResponse,
  TargetServerError,
} from './errors.ts';
import { sendError, sendJson } from './http-reply.ts';
import type { Target } from './target-service.ts';

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
  let peers: readonly number[];
  try {
    call = parseIndex(param(q, 'call'), 'call', 0, MAX_CALL);
    attempt = parseIndex(param(q, 'attempt'), 'attempt', 1, MAX_ATTEMPT);
    peers = parsePeers(target, q);
  } catch (err) {
    target.countBadRequest();
    sendError(res, err);
    return;
  }
  // A request body on GET /work is not read; drain it so the connection can carry the next request.
  req.resume();
  let ticket: PoolTicket;
  try {
    ticket = target.submit(
      call,
      attempt,
      (r) => {
        if (res.writableEnded || res.destroyed) return Number.NaN;
        if (r instanceof TargetServerError) {
          sendError(res, r);
          return Number.NaN;
        }
        // A tied copy a sibling's server cancelled: answered at once, so its connection carries the next request
        // (the load generator then waits for the copy that runs, as the simulator's client does).
        if (r.peerCancelled === true) {
          const at = target.clock.now();
          sendJson(res, 410, PEER_CANCELLED_BODY);
          return at;
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
      },
      peers,
    );
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

// The bodies of every model failure and every peer-cancelled copy: the same bytes each time, made once.
const MODEL_FAILURE_BODY = JSON.stringify(new ModelFailureResponse().toJSON());
const PEER_CANCELLED_BODY = JSON.stringify(new PeerCancelledResponse().toJSON());

// A tied copy's `peers`: its siblings' replicas, comma-separated, each another replica of the point (none: []).
function parsePeers(target: Target, q: URLSearchParams): readonly number[] {
  const v = param(q, 'peers');
  const cfg = target.config;
  if (cfg.tiedCopies === 0) {
    if (v === undefined) return [];
    throw new BadParameterError(
      'peers',
      'query parameter peers is for tied points only and this server is not set to one (PUT /config tiedCopies); drop peers',
    );
  }
  if (v === undefined || v === '') return [];
  const parts = typeof v === 'string' ? v.split(',') : v;
  const peers = parts.map((p) => parseIndex(p, 'peers', 0, cfg.replicas - 1));
  if (peers.includes(cfg.replica) || new Set(peers).size !== peers.length || peers.length >= cfg.tiedCopies) {
    throw new BadParameterError(
      'peers',
      `query parameter peers ${JSON.stringify(v)} must list the other copies' replicas, distinct, at most ${cfg.tiedCopies - 1}, none this server's own (${cfg.replica}); e.g. /work?call=0&attempt=1&peers=${cfg.replica === 0 ? 1 : 0}`,
    );
  }
  return peers;
}
