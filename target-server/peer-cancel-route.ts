// POST /peer-cancel?call=N&attempt=K on node:http directly, as GET /work (work-route.ts says why): the server
// that started copy K of tied call N tells this one, whose copy of N must go if it is still queued. Guarded by
// the run's token, as the control routes are. The arrival is read first, before anything else: with the
// sender's record it gives the cancel's transit (the `tie_cancel` figure of attribution.csv).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_ATTEMPT, MAX_CALL, parseIndex } from './config.ts';
import { UnauthorizedError } from './errors.ts';
import { sendError, sendJson } from './http-reply.ts';
import type { Target } from './target-service.ts';
import { epochNowMs } from './tied-copies.ts';

/** True when the request is POST /peer-cancel?… (it skips express). */
export function isPeerCancelRequest(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  return req.method === 'POST' && (url === '/peer-cancel' || url.startsWith('/peer-cancel?'));
}

/**
 * Serves one peer cancel: 401 without the token, 400 naming a bad parameter, else 200 with what it did at
 * once: `{"outcome":"removed"|"removing"|"too-late"|"remembered"|"ignored"}` (removing: the pool thread is
 * taking it out if it is still queued; the attempt's record says what happened).
 */
export function servePeerCancel(
  target: Target,
  authorized: (authorization: string | undefined) => boolean,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const at = epochNowMs();
  // Any body is not read; drain it so the connection carries the next cancel.
  req.resume();
  if (!authorized(req.headers.authorization)) {
    sendError(res, new UnauthorizedError());
    return;
  }
  const q = new URLSearchParams((req.url ?? '').slice('/peer-cancel'.length + 1));
  let call: number;
  let attempt: number;
  try {
    call = parseIndex(one(q, 'call'), 'call', 0, MAX_CALL);
    attempt = parseIndex(one(q, 'attempt'), 'attempt', 1, MAX_ATTEMPT);
  } catch (err) {
    target.countBadRequest();
    sendError(res, err);
    return;
  }
  sendJson(res, 200, `{"outcome":"${target.peerCancel(call, attempt, at)}"}`);
}

// A parameter given twice is a list, which parseIndex refuses.
function one(q: URLSearchParams, name: string): string | string[] | undefined {
  const all = q.getAll(name);
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
}
