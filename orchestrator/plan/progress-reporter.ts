// Live progress on stderr: one updating line on a terminal (one per lane when points run in parallel), a
// plain line every few seconds otherwise. The formatter is a pure function; the reporter only decides when
// and how to write it.

import { formatMs } from '../../contract/index.ts';

/** What the progress line shows about the running point and the run. */
export interface ProgressState {
  /** The lane measuring the point, in a run of several lanes; absent with one. */
  lane?: number;
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
    `${s.lane === undefined ? '' : `lane ${s.lane} `}[${s.point}/${s.points}] ${s.key.replaceAll('|', ' ')}`,
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

/** Writes progress and messages to a sink without messages and the live lines overwriting each other. */
export class ProgressReporter {
  /** The live line of each lane (0 when the run has one), drawn in lane order. */
  private readonly lines = new Map<number, string>();
  /** Lines on the terminal now. */
  private drawn = 0;
  private readonly lastPlain = new Map<number, number>();

  constructor(
    private readonly sink: ProgressSink,
    private readonly plainEveryMs = 5_000,
  ) {}

  /** Shows the current state: rewrites the lines on a terminal, prints at most every plainEveryMs otherwise. */
  update(s: ProgressState): void {
    const line = formatProgress(s);
    const lane = s.lane ?? 0;
    if (this.sink.isTTY) {
      this.lines.set(lane, line);
      this.draw();
      return;
    }
    const now = Date.now();
    if (now - (this.lastPlain.get(lane) ?? 0) >= this.plainEveryMs) {
      this.lastPlain.set(lane, now);
      this.sink.write(`${line}\n`);
    }
  }

  /** A lane's point ended: its line goes (the others are drawn again at their next update). */
  drop(lane = 0): void {
    this.lines.delete(lane);
    this.clear();
  }

  /** Prints a message on its own line (clearing the live lines first). */
  message(text: string): void {
    this.clear();
    this.sink.write(`${text}\n`);
  }

  /** Removes the live lines (terminal) and lets the next update print at once (plain). */
  clear(): void {
    if (this.drawn > 0) {
      // From the last line up to the first, each erased.
      this.sink.write(Array(this.drawn).fill('\r\x1b[2K').join('\x1b[1A'));
      this.drawn = 0;
    }
    this.lastPlain.clear();
  }

  private draw(): void {
    const width = Math.max(20, (this.sink.columns ?? 120) - 1);
    const rows = [...this.lines.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, l]) => `\r\x1b[2K${l.length > width ? `${l.slice(0, width - 1)}…` : l}`);
    // Back up to the first live line, then write every line again.
    this.sink.write(`${this.drawn > 1 ? `\x1b[${this.drawn - 1}A` : ''}${rows.join('\n')}`);
    this.drawn = rows.length;
  }
}
