// Test helper: a plain node:http server on 127.0.0.1 answering GET /work?call=i&attempt=k through a
// programmable handler (GET /clock tells performance.now(); other routes, e.g. the warm-up's /health, are
// only counted), recording what arrived, how many were open at once, and which requests the client closed
// before their response finished.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface Arrival {
  call: number;
  attempt: number;
  /** performance.now() at arrival. */
  at: number;
}

/** Decides how to answer one attempt. */
export type WorkHandler = (a: Arrival, res: ServerResponse, req: IncomingMessage) => void;

/** A started test server. */
export interface WorkServer {
  url: string;
  arrivals: Arrival[];
  /** Requests the client aborted (response closed before finishing). */
  aborted: Arrival[];
  maxOpen: number;
  open: number;
  /** Requests to other routes (the warm-up's /health). */
  otherHits: number;
  handler: WorkHandler;
  reset(): void;
  close(): Promise<void>;
}

/** Starts a server whose handler can be swapped per test. */
export async function startWorkServer(
  handler: WorkHandler = (_a, res) => res.end('{}'),
): Promise<WorkServer> {
  const state: WorkServer = {
    url: '',
    arrivals: [],
    aborted: [],
    maxOpen: 0,
    open: 0,
    otherHits: 0,
    handler,
    reset() {
      state.arrivals = [];
      state.aborted = [];
      state.maxOpen = 0;
      state.otherHits = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    // The generator's clock-offset exchanges: this process's clock, like the target server's GET /clock.
    if (u.pathname === '/clock') {
      res.end(`{"nowMs":${performance.now()}}`);
      return;
    }
    // The generator's warm-up goes to /health: answered, not recorded.
    if (u.pathname !== '/work') {
      state.otherHits++;
      res.end('ok');
      return;
    }
    const a: Arrival = {
      call: Number(u.searchParams.get('call')),
      attempt: Number(u.searchParams.get('attempt')),
      at: performance.now(),
    };
    state.arrivals.push(a);
    state.open++;
    if (state.open > state.maxOpen) state.maxOpen = state.open;
    res.on('close', () => {
      state.open--;
      if (!res.writableFinished) state.aborted.push(a);
    });
    state.handler(a, res, req);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Waits until `cond()` holds, polling every 10 ms for at most `ms`. */
export async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = performance.now() + ms;
  while (!cond() && performance.now() < end) await new Promise((r) => setTimeout(r, 10));
}
