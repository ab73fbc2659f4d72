// GET /metrics: the target server's state in Prometheus exposition format, on a private prom-client
// Registry per server instance (several servers in one process never share metrics).

import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { AttemptEnd } from '../contract/index.ts';
import type { TargetStats } from './target-stats.ts';

/** The Prometheus side of one server: lifetime counters updated on the hot path, gauges read at scrape. */
export interface TargetMetrics {
  registry: Registry;
  /** Counts an ended attempt (lifetime counter; POST /reset does not touch Prometheus counters). */
  attemptEnded(ended: AttemptEnd): void;
  cancelRequested(): void;
  badRequest(): void;
}

/** Builds the registry; `read` supplies /stats-equivalent values at scrape time. */
export function createTargetMetrics(read: () => TargetStats): TargetMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'hedgebench_target_' });
  const attempts = new Counter({
    name: 'hedgebench_target_attempts_total',
    help: 'Attempts that ended, by how they ended (since the process started)',
    labelNames: ['ended'],
    registers: [registry],
  });
  const byEnd: Record<AttemptEnd, { inc(): void }> = {
    served: attempts.labels('served'),
    failed: attempts.labels('failed'),
    'cancelled-queued': attempts.labels('cancelled-queued'),
    'cancelled-in-service': attempts.labels('cancelled-in-service'),
  };
  const cancels = new Counter({
    name: 'hedgebench_target_cancel_requests_total',
    help: 'Client aborts of attempts still queued or in service, in either cancellation mode',
    registers: [registry],
  });
  const bad = new Counter({
    name: 'hedgebench_target_bad_requests_total',
    help: 'Requests refused with 400 (bad call/attempt or config)',
    registers: [registry],
  });

  const gauge = (name: string, help: string, value: (s: TargetStats) => number | null): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const v = value(read());
        this.set(v ?? Number.NaN);
      },
    });
  };
  gauge('hedgebench_target_workers', 'Workers in the pool', (s) => s.config.workers);
  gauge('hedgebench_target_queue_length', 'Attempts waiting for a worker', (s) => s.queueLength);
  gauge('hedgebench_target_busy_workers', 'Workers serving an attempt', (s) => s.busyWorkers);
  gauge(
    'hedgebench_target_utilisation',
    'Busy worker time / available worker time since reset',
    (s) => s.utilisation,
  );
  gauge(
    'hedgebench_target_recorder_buffered',
    'Attempt records waiting for Redis',
    (s) => s.recorder?.buffered ?? 0,
  );
  gauge(
    'hedgebench_target_recorder_dropped',
    'Attempt records dropped (buffer full)',
    (s) => s.recorder?.dropped ?? 0,
  );

  new Gauge({
    name: 'hedgebench_target_hold_error_seconds',
    help: 'Hold-time error (actual − intended service time) of served attempts since reset, by quantile',
    labelNames: ['quantile'],
    registers: [registry],
    collect() {
      const h = read().holdErrorMs;
      const q: [string, number | null][] = [
        ['0.5', h.p50],
        ['0.99', h.p99],
        ['0.999', h.p999],
        ['1', h.max],
      ];
      for (const [label, ms] of q) this.labels(label).set(ms === null ? Number.NaN : ms / 1000);
    },
  });

  return {
    registry,
    attemptEnded: (ended) => byEnd[ended].inc(),
    cancelRequested: () => cancels.inc(),
    badRequest: () => bad.inc(),
  };
}
