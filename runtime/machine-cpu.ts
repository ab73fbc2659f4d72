// How much CPU the whole machine used over a stretch of wall time, in cores: what lanes on one machine compete
// for, and what `--lanes auto` budgets (orchestrator/lanes/lanes.ts). Read from /proc/stat, so it counts every
// process (target, load generators, Redis, the orchestrator, and anything else running); null off Linux.
// Also the share its hypervisor took (steal): on a virtual machine, time a vCPU was ready to run and was not
// given a physical core, which delays every timer of the harness at once.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

interface Ticks {
  busy: number;
  steal: number;
  all: number;
}

/**
 * The first line of /proc/stat: the machine's jiffies by state since boot (user nice system idle iowait irq
 * softirq steal …); idle and iowait are the idle ones, steal counts as busy (the vCPU wanted to run).
 */
export function parseProcStat(text: string): Ticks | null {
  const v = text.split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  if (v.length < 4 || v.some((x) => !Number.isFinite(x))) return null;
  const all = v.reduce((a, b) => a + b, 0);
  return { busy: all - v[3] - (v[4] ?? 0), steal: v[7] ?? 0, all };
}

function ticks(): Ticks | null {
  try {
    return parseProcStat(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/** The machine's CPU over a stretch: busy cores on average (0..cores) and the stretch's wall seconds. */
export interface MachineCpu {
  cores: number;
  busyCores: number;
  /** The share (0..1) of the machine's CPU time its hypervisor took (steal); 0 on bare metal. */
  stealShare: number;
  seconds: number;
}

/** Starts measuring; `read()` gives the machine's CPU since then (null where /proc/stat is not readable). */
export function startCpuMeter(): { read(): MachineCpu | null } {
  const t0 = Date.now();
  const c0 = ticks();
  return {
    read() {
      const c1 = ticks();
      if (!c0 || !c1 || c1.all <= c0.all) return null;
      const cores = availableParallelism();
      return {
        cores,
        busyCores: ((c1.busy - c0.busy) / (c1.all - c0.all)) * cores,
        stealShare: Math.round(((c1.steal - c0.steal) / (c1.all - c0.all)) * 10_000) / 10_000,
        seconds: (Date.now() - t0) / 1000,
      };
    },
  };
}
