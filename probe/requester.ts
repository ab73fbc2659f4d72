// Sends the probe's requests: GET of the user's URL over the load generator's undici transport, one
// connection per request in flight, the body discarded unread. `{n}` in the URL becomes a running request
// number (a service that derives its work from the URL, like hedgebench's own /work?call={n}, needs it).

import { performance } from 'node:perf_hooks';
import { createTransport, type Transport } from '../loadgen/index.ts';
import { ProbeOptionsError } from './errors.ts';

/** One answer: ok (2xx) or failed with a short reason (`HTTP 503`, `UND_ERR_HEADERS_TIMEOUT`, …). */
export interface Answer {
  ok: boolean;
  /** From the moment the request was handed to the transport to the end of the response, ms. */
  latencyMs: number;
  reason: string;
}

/** Sends GETs to one URL template. */
export interface Requester {
  /** Sends one request now; `done` is called once, unless the returned cancel runs first. */
  send(done: (a: Answer) => void): () => void;
  readonly inflight: number;
  readonly url: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Failures that are timeouts (counted apart: a timeout is a sign of the knee). */
export const TIMEOUT_REASONS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'timeout']);

/** Checks a --target URL template: http://, a host; `{n}` allowed anywhere after the origin. */
export function parseProbeUrl(template: string): { origin: string; pathTemplate: string; url: URL } {
  let url: URL;
  try {
    url = new URL(template.replaceAll('{n}', '0'));
  } catch {
    throw new ProbeOptionsError(
      `--target ${JSON.stringify(template)} is not a URL; use http://HOST:PORT/PATH (with {n} for a request number)`,
    );
  }
  if (url.protocol !== 'http:') {
    throw new ProbeOptionsError(
      `--target ${JSON.stringify(template)} uses ${url.protocol}; the probe speaks http:// (HTTP/1.1 keep-alive) only`,
    );
  }
  if (template.slice(0, url.origin.length).includes('{n}')) {
    throw new ProbeOptionsError(`--target: {n} may appear only in the path or query, not in ${url.origin}`);
  }
  const pathTemplate = template.slice(url.origin.length) || '/';
  return { origin: url.origin, pathTemplate, url };
}

/** A Requester for `template`; `timeoutMs` bounds the wait for response headers (and for connecting). */
export function createRequester(template: string, timeoutMs: number): Requester {
  const { origin, pathTemplate, url } = parseProbeUrl(template);
  const transport: Transport = createTransport({
    target: origin,
    headersTimeoutMs: timeoutMs,
    connectTimeoutMs: Math.min(timeoutMs, 2_000),
  });
  const hasN = pathTemplate.includes('{n}');
  let n = 0;
  return {
    url: template,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? 80 : Number(url.port),
    send(done) {
      const path = hasN ? pathTemplate.replaceAll('{n}', String(n)) : pathTemplate;
      n++;
      const t0 = performance.now();
      return transport.sendTo(path, (o) => {
        const latencyMs = performance.now() - t0;
        done(o.ok ? { ok: true, latencyMs, reason: '' } : { ok: false, latencyMs, reason: o.error.reason });
      });
    },
    get inflight() {
      return transport.inflight;
    },
    close: () => transport.destroy(),
  };
}
