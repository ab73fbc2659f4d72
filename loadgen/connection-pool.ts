// The load generator's HTTP/1.1 connections to the target: one undici Client per connection, no pipelining,
// as many connections as attempts in flight, but at most `maxConnecting` being opened at once.
//
// Why not undici's Pool: a Pool opens a new connection for every request that finds no idle one, all at
// once. At the start of a fast open-loop point (or after a burst) that means hundreds of simultaneous
// connects; each costs CPU the responses need, fewer responses free connections, more connects follow,
// until a fast point from a cold start has almost nothing answered. Bounding the connects in progress turns
// that spiral into a short queue, whose wait shows up as send lag (the write time is taken when a request is
// written, see http-transport.ts) instead of hiding.

import { Client, type Dispatcher } from 'undici';

/** One connection (an undici Client with pipelining 1). */
interface Conn {
  client: Client;
  connected: boolean;
  connecting: boolean;
  busy: boolean;
}

/** A request handler the pool dispatches; it must call `release(handler)` once its request has ended. */
export interface PooledHandler extends Dispatcher.DispatchHandler {
  /** Set by the pool when the request is handed to a connection. */
  conn: unknown;
  /** True once the handler no longer wants to be dispatched (cancelled while waiting). */
  ended: boolean;
  readonly opts: Dispatcher.DispatchOptions;
}

/** Options of a ConnectionPool. */
interface ConnectionPoolOptions {
  origin: string;
  /** Most connections ever open (default 20 000). */
  maxConnections?: number;
  /** Most connections being opened at the same time (default 8). */
  maxConnecting?: number;
  connectTimeoutMs?: number;
  /** 0 = none. */
  headersTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
}

/** Connections to one origin; see the file header. */
export class ConnectionPool {
  /** Idle connections whose socket is up (or coming up); checked again when taken. */
  private readonly idleUp: Conn[] = [];
  /** Idle connections that must reconnect before use (after an abort, or the server closed them). */
  private readonly idleDown: Conn[] = [];
  private readonly waiting: PooledHandler[] = [];
  private waitHead = 0;
  private size = 0;
  private connectingNow = 0;
  private readonly all: Conn[] = [];
  private readonly maxConnections: number;
  private readonly maxConnecting: number;

  constructor(private readonly o: ConnectionPoolOptions) {
    this.maxConnections = o.maxConnections ?? 20_000;
    this.maxConnecting = o.maxConnecting ?? 8;
  }

  /** Connections made so far. */
  get connections(): number {
    return this.size;
  }

  /** Requests waiting for a connection. */
  get queued(): number {
    return this.waiting.length - this.waitHead;
  }

  /** Hands the request to an idle connection, a new one, or the queue (FIFO). */
  dispatch(h: PooledHandler): void {
    this.waiting.push(h);
    this.pump();
  }

  /**
   * Returns the handler's connection after its request ended (complete, error or abort). Idempotent.
   * Socket state comes from the client's events only: a guess could leave the connecting count off for good.
   */
  release(h: PooledHandler): void {
    const conn = h.conn as Conn | null;
    if (conn === null) return;
    h.conn = null;
    conn.busy = false;
    (conn.connected || conn.connecting ? this.idleUp : this.idleDown).push(conn);
    this.pump();
  }

  /** Closes every connection at once (requests in flight fail). */
  async destroy(): Promise<void> {
    this.waiting.length = 0;
    this.waitHead = 0;
    await Promise.all(this.all.map((c) => c.client.destroy().catch(() => {})));
  }

  // Dispatches waiting requests while a connection can take them.
  private pump(): void {
    while (this.waitHead < this.waiting.length) {
      const h = this.waiting[this.waitHead]!;
      if (h.ended) {
        this.waitHead++;
        continue;
      }
      const conn = this.take();
      if (conn === null) break;
      this.waitHead++;
      this.send(conn, h);
    }
    if (this.waitHead > 1024 && this.waitHead * 2 > this.waiting.length) {
      this.waiting.splice(0, this.waitHead);
      this.waitHead = 0;
    }
  }

  // A connection for the next request: an idle connected one (most recently used first), else one that
  // must (re)connect if a connect slot is free: an idle disconnected one or a new one.
  private take(): Conn | null {
    for (let c = this.idleUp.pop(); c !== undefined; c = this.idleUp.pop()) {
      if (c.connected || c.connecting) return c;
      this.idleDown.push(c);
    }
    if (this.connectingNow >= this.maxConnecting) return null;
    const c = this.idleDown.pop();
    if (c !== undefined) return c;
    return this.size < this.maxConnections ? this.open() : null;
  }

  private send(conn: Conn, h: PooledHandler): void {
    conn.busy = true;
    if (!conn.connected && !conn.connecting) {
      conn.connecting = true;
      this.connectingNow++;
    }
    h.conn = conn;
    conn.client.dispatch(h.opts, h);
  }

  private open(): Conn {
    const client = new Client(this.o.origin, {
      pipelining: 1,
      connectTimeout: this.o.connectTimeoutMs ?? 2_000,
      headersTimeout: this.o.headersTimeoutMs ?? 0,
      bodyTimeout: 0,
      keepAliveTimeout: this.o.keepAliveTimeoutMs ?? 30_000,
    });
    const conn: Conn = { client, connected: false, connecting: false, busy: false };
    const settled = (connected: boolean): void => {
      conn.connected = connected;
      if (conn.connecting) {
        conn.connecting = false;
        this.connectingNow--;
        this.pump();
      }
    };
    client.on('connect', () => settled(true));
    client.on('connectionError', () => settled(false));
    client.on('disconnect', () => {
      conn.connected = false;
    });
    this.size++;
    this.all.push(conn);
    return conn;
  }
}
