// Hostile HTTP against a real target server on loopback: malformed query strings (property), huge
// numbers, wrong and invalid methods, oversized headers and bodies, and slow or silent clients. Every
// request gets a 4xx (or its connection closed), never a 5xx or a crash, and the server keeps serving
// /work to other clients the whole time.
import { Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTargetServer,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  type TargetServer,
} from '../../target-server/index.ts';
import { call, createAgent } from '../target-server/http.ts';

const TOKEN = 'reliability-token-7d1e';
let server: TargetServer;
let port: number;
const agent = createAgent();

beforeAll(async () => {
  server = await createTargetServer({
    workers: 4,
    model: { service: { kind: 'constant', ms: 1 } },
    token: TOKEN,
    log: () => {},
  });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await agent.close();
  await server?.close({ graceMs: 1_000 });
});

/** What came back on a raw connection: the status (0 = none) and whether the server closed it. */
interface RawReply {
  status: number;
  text: string;
  closedByServer: boolean;
}

/** Writes `request` bytes as they are and reads until the server closes or `waitMs` pass. */
function raw(request: string | Buffer, waitMs = 3_000): Promise<RawReply> {
  return new Promise((resolve) => {
    const s = new Socket();
    let text = '';
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text, closedByServer });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    s.on('data', (d) => {
      text += d.toString('latin1');
    });
    s.on('end', () => finish(true));
    s.on('close', () => finish(true));
    s.on('error', () => finish(true));
    s.connect(port, '127.0.0.1', () => s.write(request));
  });
}

const get = (target: string) => `GET ${target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n`;

/** A normal attempt from a well-behaved client succeeds. */
async function stillServes(callIndex: number): Promise<void> {
  const r = await call(agent, `${server.url}/work?call=${callIndex}&attempt=1`);
  expect(r.status).toBe(200);
  expect(r.body.intendedMs).toBe(1);
}

describe('hostile requests to the target server', () => {
  it('answers any query string with 200 or a 400 naming the parameter, never 5xx (property)', async () => {
    const piece = fc.constantFrom(
      ...'%&=[]{}.;,+-_0123456789abcxyzAZ#?/\\\'"<>~!$()*:@|^`'.split(''),
      '%00',
      '%ZZ',
      '%25',
      '%2',
      'call=',
      'attempt=',
      'call=1',
      'attempt=1',
      'call[]=1',
      'call[a]=1',
      'é',
      '\u0000',
      '\t',
      ' ',
      '\u{1F4A5}',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 40 }), async (pieces) => {
        const r = await raw(Buffer.from(get(`/work?${pieces.join('')}`), 'utf8'));
        // 400 from the HTTP parser (invalid bytes in the target) or from our validation; 200 if valid.
        expect([200, 400], r.text.slice(0, 200)).toContain(r.status);
        if (r.status === 400 && r.text.includes('application/json')) {
          expect(r.text).toMatch(/"code":"HB_BAD_PARAMETER".*(call|attempt)/);
        }
      }),
      { numRuns: 150 },
    );
    await stillServes(1);
  });

  it('refuses huge and odd numbers with 400 naming the parameter', async () => {
    const bad = [
      'call=1e400&attempt=1',
      'call=99999999999999999999999999999999&attempt=1',
      'call=9007199254740993&attempt=1',
      'call=4294967296&attempt=1',
      'call=-0&attempt=1',
      'call=0x10&attempt=1',
      'call=+1&attempt=1',
      'call=%EF%BC%91&attempt=1', // a full-width digit one
      'call=1&attempt=1e3',
      'call=1&attempt=Infinity',
      `call=${'9'.repeat(5_000)}&attempt=1`,
    ];
    for (const q of bad) {
      const r = await call(agent, `${server.url}/work?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code, q).toBe('HB_BAD_PARAMETER');
      expect(r.body.error.message, q).toMatch(/call|attempt/);
    }
    await stillServes(2);
  });

  it('answers wrong methods with 404, and invalid ones with 400 or a closed connection', async () => {
    for (const [method, path] of [
      ['DELETE', '/work?call=1&attempt=1'],
      ['PATCH', '/config'],
      ['GET', '/config'],
      ['PUT', '/reset'],
      ['POST', '/health'],
      ['OPTIONS', '/work'],
      ['TRACE', '/'],
    ] as const) {
      const r = await raw(`${method} ${path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n`);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.text).toContain('HB_NOT_FOUND');
    }
    for (const line of [
      'FOO /work HTTP/1.1',
      'GE T /work HTTP/1.1',
      'GET /work HTTP/9.9',
      'GET',
      '\u0001\u0002\u0003',
    ]) {
      const r = await raw(`${line}\r\nHost: t\r\n\r\n`);
      expect(r.closedByServer, line).toBe(true);
      expect([0, 400, 505], line).toContain(r.status);
    }
    // CONNECT has no handler: the server drops the connection rather than tunnel anywhere.
    const connect = await raw('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n');
    expect(connect.closedByServer).toBe(true);
    expect(connect.status === 0 || connect.status >= 400).toBe(true);
    await stillServes(3);
  });

  it('refuses oversized headers and bodies (431 / 413 / 401) without reading them all', async () => {
    const bigHeader = await raw(`GET /health HTTP/1.1\r\nHost: t\r\nX-Pad: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    expect(bigHeader.status).toBe(431);

    const body = 'x'.repeat(4 * 1024 * 1024);
    const withToken = await raw(
      `PUT /config HTTP/1.1\r\nHost: t\r\nConnection: close\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(withToken.status).toBe(413);
    expect(withToken.text).toContain('HB_BODY_TOO_LARGE');
    // The same without a Content-Length (chunked): cut off at the limit too.
    const chunk = `{"pad":"${'y'.repeat(64 * 1024)}"}`;
    const chunked = await raw(
      `PUT /config HTTP/1.1\r\nHost: t\r\nConnection: close\r\nAuthorization: Bearer ${TOKEN}\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
    );
    expect(chunked.status).toBe(413);
    // Without the token the body is never parsed: 401 first.
    const noToken = await raw(
      `PUT /config HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(noToken.status).toBe(401);
    expect(noToken.text).not.toContain(TOKEN);
    const lying = await raw(
      `PUT /config HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: 10\r\nContent-Length: 20\r\n\r\n{}`,
    );
    expect(lying.status).toBe(400);
    expect(server.stats().config.workers).toBe(4);
    await stillServes(4);
  });

  it('keeps serving while a slowloris, a slow body and 100 silent connections are open, then closes them', async () => {
    // A client that sends its request line, then one header byte per second, forever.
    const slowloris = new Socket();
    const slowBody = new Socket();
    const silent: Socket[] = [];
    const closedAt = new Map<Socket, number>();
    const replies = new Map<Socket, string>();
    const track = (s: Socket) => {
      replies.set(s, '');
      s.on('data', (d) => replies.set(s, replies.get(s) + d.toString('latin1')));
      s.on('close', () => closedAt.set(s, Date.now()));
      s.on('error', () => {});
    };
    const t0 = Date.now();
    let drip: NodeJS.Timeout | undefined;
    try {
      track(slowloris);
      slowloris.connect(port, '127.0.0.1', () => {
        slowloris.write('GET /health HTTP/1.1\r\nHost: t\r\nX-Slow: ');
        drip = setInterval(() => {
          if (!slowloris.destroyed) slowloris.write('a');
        }, 1_000);
      });
      // Headers complete, then a body announced as 1000 bytes of which only 10 ever come.
      track(slowBody);
      slowBody.connect(port, '127.0.0.1', () =>
        slowBody.write(
          `PUT /config HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"workers"`,
        ),
      );
      for (let i = 0; i < 100; i++) {
        const s = new Socket();
        track(s);
        s.connect(port, '127.0.0.1');
        silent.push(s);
      }
      // Meanwhile, ordinary clients are served, again and again.
      for (let i = 0; i < 20; i++) {
        await stillServes(100 + i);
        expect((await call(agent, `${server.url}/health`)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(closedAt.has(slowloris)).toBe(false);
      // The server gives up on each of them: headers after HEADERS_TIMEOUT_MS, the body after REQUEST_TIMEOUT_MS.
      const all = [slowloris, slowBody, ...silent];
      const deadline = t0 + REQUEST_TIMEOUT_MS + 5_000;
      while (all.some((s) => !closedAt.has(s)) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(all.filter((s) => !closedAt.has(s))).toHaveLength(0);
      expect(closedAt.get(slowloris)! - t0).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 1_000);
      expect(replies.get(slowloris)).toMatch(/^HTTP\/1\.1 408/);
      expect(replies.get(slowBody)).toMatch(/^HTTP\/1\.1 408/);
      // The half-sent configuration was never applied.
      expect(server.stats().config.workers).toBe(4);
      await stillServes(200);
    } finally {
      clearInterval(drip);
      for (const s of [slowloris, slowBody, ...silent]) s.destroy();
    }
  }, 60_000);
});
