// The target's checks of itself over a point, as /stats reports them: the hold-time error of served
// attempts (the pool's precision), the response delay (worker released → response written: how long a ready
// answer waited for the main thread), the event-loop delay (a stall here delays responses, and with
// `--pool loop` the holds too), and the process's CPU since the last reset.

import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { HoldTimeHistogram } from './hold-time.ts';
import type { TargetStats } from './target-stats.ts';

type CheckFigures = Pick<
  TargetStats,
  'holdErrorMs' | 'responseDelayMs' | 'eventLoopDelayMs' | 'cpu' | 'eventLoopUtilisation'
>;

/** The event-loop delay since the last reset in ms (the monitor records ns; its resolution is 1 ms). */
function loopDelaySummary(h: IntervalHistogram): TargetStats['eventLoopDelayMs'] {
  if (h.count === 0) return { count: 0, p50: null, p99: null, max: null };
  return { count: h.count, p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
}

/** One server's checks of itself since its last reset. */
export class ServerChecks {
  private readonly hold = new HoldTimeHistogram();
  private readonly responseDelay = new HoldTimeHistogram();
  // How late the event loop ran a 1 ms timer.
  private readonly loopDelay: IntervalHistogram = monitorEventLoopDelay({ resolution: 1 });
  // The load generator warms up against /health as fast as it can before its first call; that burst is not
  // the point's load, so the event-loop delay is counted from the first /work after a reset.
  private loadStarted = false;
  private resetCpu = process.cpuUsage();
  private resetElu = performance.eventLoopUtilization();

  constructor() {
    this.loopDelay.enable();
  }

  /** A /work request arrived: the point's load has begun. */
  workArrived(): void {
    if (this.loadStarted) return;
    this.loadStarted = true;
    this.loopDelay.reset();
  }

  /** A served attempt held its worker `errorMs` longer than its intended service (negative: shorter). */
  recordHold(errorMs: number): void {
    this.hold.record(errorMs);
  }

  /** An answer was written `ms` after its worker was released. */
  recordResponseDelay(ms: number): void {
    this.responseDelay.record(ms);
  }

  reset(): void {
    this.hold.reset();
    this.responseDelay.reset();
    this.loopDelay.reset();
    this.loadStarted = false;
    this.resetCpu = process.cpuUsage();
    this.resetElu = performance.eventLoopUtilization();
  }

  /** The figures since the last reset, `elapsedMs` of wall time ago. */
  figures(elapsedMs: number): CheckFigures {
    const cpu = process.cpuUsage(this.resetCpu);
    return {
      holdErrorMs: this.hold.summary(),
      responseDelayMs: this.responseDelay.summary(),
      eventLoopDelayMs: loopDelaySummary(this.loopDelay),
      cpu: {
        userMs: cpu.user / 1000,
        systemMs: cpu.system / 1000,
        cores: elapsedMs > 0 ? (cpu.user + cpu.system) / 1000 / elapsedMs : 0,
      },
      eventLoopUtilisation: performance.eventLoopUtilization(this.resetElu).utilization,
    };
  }

  /** Stops the event-loop monitor: its timer must not outlive the server. */
  close(): void {
    this.loopDelay.disable();
  }
}
