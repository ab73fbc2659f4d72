// Live progress on stderr: one updating line on a terminal, a plain line every few seconds otherwise.
// The formatter is a pure function; the reporter only decides when and how to write it.

import { formatMs } from '../contract/index.ts';

/** What the progress line shows about the running point and the run. */
export interface ProgressState {
  /** 1-based position of the point in the run, and the number of points the run measures. */
  point: number;
  points: number;
  /** The point's key, `config|load|cancellation|seed`. */
  key: string;
  calls: number;
  completed: number;
  inflight: number | null;
  p99Ms: number | null;
  sendLagP99Ms: number | null;
  etaPointMs: number;
  etaRunMs: number;
}

/** `42s`, `3m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

const ms = (v: number | null) => (v === null || !Number.isFinite(v) ? '–' : `${formatMs(v)} ms`);

/** The progress line (no newline). */
export function formatProgress(s: ProgressState): string {
  const pct = s.calls > 0 ? Math.floor((100 * s.completed) / s.calls) : 0;
  return [
    `[${s.point}/${s.points}] ${s.key.replaceAll('|', ' ')}`,
    `${s.completed}/${s.calls} calls (${pct}%)`,
    `in flight ${s.inflight ?? '–'}`,
    `p99 ${ms(s.p99Ms)}`,
    `send lag p99 ${ms(s.sendLagP99Ms)}`,
    `left: point ${formatDuration(s.etaPointMs)}, run ${formatDuration(s.etaRunMs)}`,
  ].join('  ');
}

/** Where progress goes: a stream and whether it is a terminal. */
export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Writes progress and messages to a sink without messages and the live line overwriting each other. */
export class ProgressReporter {
  private live = false;
  private lastPlain = 0;

  constructor(
    private readonly sink: ProgressSink,
    private readonly plainEveryMs = 5_000,
  ) {}

  /** Shows the current state: rewrites the line on a terminal, prints at most every plainEveryMs otherwise. */
  update(s: ProgressState): void {
    const line = formatProgress(s);
    if (this.sink.isTTY) {
      const width = Math.max(20, (this.sink.columns ?? 120) - 1);
      this.sink.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
      this.live = true;
      return;
    }
    const now = Date.now();
    if (now - this.lastPlain >= this.plainEveryMs) {
      this.lastPlain = now;
      this.sink.write(`${line}\n`);
    }
  }

  /** Prints a message on its own line (clearing the live line first). */
  message(text: string): void {
    this.clear();
    this.sink.write(`${text}\n`);
  }

  /** Removes the live line (terminal) and lets the next update print at once (plain). */
  clear(): void {
    if (this.live) {
      this.sink.write('\r\x1b[2K');
      this.live = false;
    }
    this.lastPlain = 0;
  }
}
