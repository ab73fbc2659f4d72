// The body of a 200 reply to GET /work: what the target server measured for the attempt. The target writes
// it and the load generator's HTTP transport reads it; both take this file's writer and reader. Also the
// pushback a reply may carry (a header over HTTP, trailing metadata over gRPC), written and read here alike.

import { WorkReplyError } from './errors.ts';

/** What the server measured for one served attempt (ms on the server's clock). */
interface WorkReply {
  /** From enqueue to the start of service. */
  queueMs: number;
  /** Measured hold time (end − start). */
  serviceMs: number;
  worker: number;
  /** The model's draw for this attempt. */
  intendedMs: number;
}

/** The reply body, byte for byte as the server has always sent it. */
export function formatWorkReply(r: WorkReply): string {
  // A template, not JSON.stringify of an object: it is written once per attempt on the server's hot path.
  return `{"queueMs":${r.queueMs},"serviceMs":${r.serviceMs},"worker":${r.worker},"intendedMs":${r.intendedMs}}`;
}

const FIELDS = ['queueMs', 'serviceMs', 'worker', 'intendedMs'] as const;

/** Reads a reply body; WorkReplyError names what is wrong (not JSON, not an object, a field not a number). */
export function parseWorkReply(text: string): WorkReply {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new WorkReplyError(`/work reply is not JSON: ${JSON.stringify(text.slice(0, 80))}`, { cause });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new WorkReplyError(`/work reply must be a JSON object, got ${JSON.stringify(text.slice(0, 80))}`);
  }
  const o = body as Record<string, unknown>;
  for (const f of FIELDS) {
    if (typeof o[f] !== 'number') {
      throw new WorkReplyError(
        `/work reply: ${f} must be a number, got ${JSON.stringify(o[f]) ?? 'nothing'}`,
      );
    }
  }
  return o as unknown as WorkReply;
}

/**
 * The time a reply says the server accounts for (queueMs + serviceMs), read leniently: a foreign service
 * (the matrix's `target.url`) answers with a body of its own, so a missing field counts as 0 and a body that
 * is not JSON gives NaN instead of an error. No validation beyond that: this runs once per attempt.
 */
export function serverMsOfReply(text: string): number {
  try {
    const body = JSON.parse(text) as Partial<Record<keyof WorkReply, unknown>>;
    const q = typeof body.queueMs === 'number' ? body.queueMs : 0;
    const s = typeof body.serviceMs === 'number' ? body.serviceMs : 0;
    return q + s;
  } catch {
    return Number.NaN;
  }
}

/**
 * The header (HTTP) and trailing-metadata key (gRPC) of a reply that asks the client for no hedges for that
 * long: wall-clock ms, a number > 0 (the model's pushback rule, dilated). Not gRPC's own
 * `grpc-retry-pushback-ms`, which grpc-js's retry machinery would act on by itself.
 */
export const PUSHBACK_HEADER = 'hedgebench-pushback-ms';

/** A pushback value as the header carries it. */
export function formatPushbackMs(ms: number): string {
  return String(ms);
}

/** A header's or metadata's pushback in ms; undefined when absent or not a finite number > 0. */
export function parsePushbackMs(value: unknown): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' && !(text instanceof Uint8Array)) return undefined;
  const ms = Number(typeof text === 'string' ? text : new TextDecoder().decode(text));
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
