// Test helper: small undici calls against a target server on loopback (JSON in, status + JSON out).
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { parseWorkReply } from '../../contract/index.ts';

/** A response: status and parsed JSON body (or the raw text when not JSON). */
export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: replies of several JSON shapes; each test reads what it asserts
  body: any;
  /** performance.now() when the response ended (same clock as an in-process server). */
  at: number;
}

/** One keep-alive agent per test file; close it in afterAll. */
export function createAgent(): Agent {
  return new Agent({ connections: 256, keepAliveTimeout: 10_000 });
}

/** Sends one request; never throws on HTTP errors (it returns their status). */
export async function call(
  agent: Agent,
  url: string,
  options: {
    method?: 'GET' | 'PUT' | 'POST';
    body?: string | object;
    token?: string;
    signal?: AbortSignal;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await request(url, {
    method: options.method ?? 'GET',
    headers,
    body,
    signal: options.signal,
    dispatcher: agent,
  });
  const text = await res.body.text();
  // A served attempt's reply is read with the contract's own reader, so every test of /work also checks
  // that the server writes what the load generator's side of the contract reads.
  if (res.statusCode === 200 && new URL(url).pathname === '/work') {
    return { status: res.statusCode, body: parseWorkReply(text), at: performance.now() };
  }
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (e.g. /metrics)
  }
  return { status: res.statusCode, body: parsed, at: performance.now() };
}

/** Resolves once `cond()` holds (checked every ms); rejects after `timeoutMs` naming `what`. */
export async function until(cond: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}
