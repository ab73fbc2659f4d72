// HTTP control of a target server: health, /config, /reset, /stats, with the run's bearer token.
import { setTimeout as sleep } from 'node:timers/promises';
import type { TargetConfig, TargetConfigPatch } from '../../contract/index.ts';
import { TargetControlError } from '../errors.ts';

/** A client of one target server. The token travels only in the Authorization header. */
export class TargetClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** True when GET /health answers 2xx within timeoutMs. */
  async healthy(timeoutMs = 2_000): Promise<boolean> {
    try {
      const res = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer();
      return res.ok;
    } catch {
      return false;
    }
  }

  /** GET /stats as JSON. */
  async stats(): Promise<Record<string, unknown>> {
    const res = await this.request('GET', '/stats');
    return (await res.json()) as Record<string, unknown>;
  }

  /** PUT /config then POST /reset; retries while the server answers 409 (attempts still in flight). */
  async prepare(config: TargetConfig, timeoutMs = 30_000): Promise<void> {
    await this.retry409('PUT', '/config', config, timeoutMs);
    await this.retry409('POST', '/reset', undefined, timeoutMs);
  }

  /**
   * Ends a point on the server: waits until no attempt is queued or in service (ignore-mode losers and a
   * collapsed point's queue run to the end of their service, which can take a while: the wait goes on as
   * long as the count keeps falling), then stops recording, which flushes the attempts stream. Returns the
   * recorder's final counters (written, dropped), or null when nothing was recorded.
   */
  async finishPoint(stuckMs = 10_000, capMs = 300_000): Promise<Record<string, unknown> | null> {
    const t0 = Date.now();
    let best = Number.POSITIVE_INFINITY;
    let bestAt = t0;
    for (;;) {
      const inFlight = Number((await this.stats()).inFlight);
      if (inFlight === 0) break;
      const now = Date.now();
      if (inFlight < best) {
        best = inFlight;
        bestAt = now;
      }
      if (now - bestAt > stuckMs || now - t0 > capMs) {
        throw new TargetControlError(
          `target ${this.baseUrl}: ${inFlight} attempts still in flight ${Math.round((now - t0) / 1000)} s after the point ended`,
        );
      }
      await sleep(50);
    }
    const stop: TargetConfigPatch = { run: null, slug: null };
    const res = await this.retry409('PUT', '/config', stop, 30_000);
    const body = (res ?? {}) as { previous?: Record<string, unknown> | null };
    return body.previous ?? null;
  }

  private async retry409(method: string, path: string, body: unknown, timeoutMs: number): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.request(method, path, body, [409]);
      const text = await res.text();
      if (res.status !== 409) {
        try {
          return JSON.parse(text);
        } catch {
          return null;
        }
      }
      if (Date.now() > deadline) {
        throw new TargetControlError(
          `target ${this.baseUrl}: ${method} ${path} still refused with 409 after ${timeoutMs} ms (${text.slice(0, 200)}); attempts of the previous point never finished`,
        );
      }
      await sleep(100);
    }
  }

  private async request(
    method: string,
    path: string,
    body?: unknown,
    allow: number[] = [],
  ): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new TargetControlError(
        `target ${this.baseUrl}: ${method} ${path} failed: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    if (!res.ok && !allow.includes(res.status)) {
      const text = (await res.text().catch(() => '')).slice(0, 300);
      throw new TargetControlError(
        `target ${this.baseUrl}: ${method} ${path} answered ${res.status}: ${text}`,
      );
    }
    return res;
  }
}
