// The replies of the routes that skip express (GET /work, POST /peer-cancel): JSON with its length, a known
// error with its status and code, anything else a 500 — as the express app answers.

import type { ServerResponse } from 'node:http';
import { formatPushbackMs, PUSHBACK_HEADER } from '../contract/index.ts';
import { TargetServerError } from './errors.ts';

/** A known error answers with its status and code; anything else is a 500, as in the express app. */
export function sendError(res: ServerResponse, err: unknown): void {
  const e = err instanceof TargetServerError ? err : null;
  const body = e?.toJSON() ?? { error: { code: 'HB_INTERNAL', message: String(err) } };
  sendJson(res, e?.status ?? 500, JSON.stringify(body));
}

/** `pushbackMs` > 0 adds the pushback header (contract/work-reply.ts); otherwise the headers are as always. */
export function sendJson(res: ServerResponse, status: number, body: string, pushbackMs = 0): void {
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  };
  if (pushbackMs > 0) headers[PUSHBACK_HEADER] = formatPushbackMs(pushbackMs);
  res.writeHead(status, headers);
  res.end(body);
}
