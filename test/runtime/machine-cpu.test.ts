// The machine's CPU from /proc/stat: busy cores and the share its hypervisor took (steal).
import { describe, expect, it } from 'vitest';
import { parseProcStat, startCpuMeter } from '../../runtime/machine-cpu.ts';

describe('parseProcStat', () => {
  it('reads busy, steal and all jiffies from the first line; steal counts as busy', () => {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const t = parseProcStat('cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 1 2 3 4\n');
    expect(t).toEqual({ all: 1000, busy: 190, steal: 35 });
  });
  it('takes a kernel without the steal column as none, and refuses what is not a cpu line', () => {
    expect(parseProcStat('cpu  100 0 50 800 10')).toEqual({ all: 960, busy: 150, steal: 0 });
    expect(parseProcStat('')).toBeNull();
    expect(parseProcStat('cpu  a b c d')).toBeNull();
  });
});

describe('startCpuMeter', () => {
  it('on Linux gives busy cores and a steal share within their ranges', async () => {
    const meter = startCpuMeter();
    const until = Date.now() + 300;
    while (Date.now() < until) Math.sqrt(Math.random()); // keep one core busy so jiffies pass
    const cpu = meter.read();
    expect(cpu).not.toBeNull();
    expect(cpu!.busyCores).toBeGreaterThan(0);
    expect(cpu!.busyCores).toBeLessThanOrEqual(cpu!.cores);
    expect(cpu!.stealShare).toBeGreaterThanOrEqual(0);
    expect(cpu!.stealShare).toBeLessThanOrEqual(1);
  });
});
