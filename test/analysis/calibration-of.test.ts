// Which calibration judges a point (analysis/judge/time-scale-calibration.ts, sim-net.ts): its own time
// scale's and transport's; its scale's first when its transport has none; the run's first when its scale
// has none — for sim and for sim+net alike; and the lines that name each calibration.
import { describe, expect, it } from 'vitest';
import type { Calibration } from '../../analysis/judge/calibration.ts';
import { noSimNet, simNetCalibrationOf } from '../../analysis/judge/sim-net.ts';
import {
  calibrationLines,
  calibrationOf,
  type TimeScaleCalibration,
} from '../../analysis/judge/time-scale-calibration.ts';

const cal = (p50Ms: number) => ({ p50Ms }) as Calibration;
const entry = (dims?: { transport?: 'grpc'; timeScale?: number }) => ({ entry: { dims } }) as never;
const group = (k: number, transport: 'http1' | 'grpc', c: Calibration) =>
  ({ k, transport, group: `${k}|${transport}`, calibration: c }) as TimeScaleCalibration;

describe('the calibration a point is judged with', () => {
  const http1 = cal(0.2);
  const grpc = cal(0.5);
  const http5 = cal(0.05);
  const a = {
    calibrations: [group(1, 'http1', http1), group(1, 'grpc', grpc), group(5, 'http1', http5)],
    calibration: http1,
  };

  it('sim: its own scale and transport, else its scale first, else the run first', () => {
    expect(calibrationOf(a, entry())).toBe(http1);
    expect(calibrationOf(a, entry({ transport: 'grpc' }))).toBe(grpc);
    expect(calibrationOf(a, entry({ timeScale: 5 }))).toBe(http5);
    expect(calibrationOf(a, entry({ transport: 'grpc', timeScale: 5 }))).toBe(http5);
    expect(calibrationOf(a, entry({ timeScale: 10 }))).toBe(http1);
  });

  it('sim+net: the same choice', () => {
    const s = noSimNet();
    for (const c of a.calibrations) s.calibrations.set(c.group, c.calibration!);
    s.calibration = http1;
    for (const d of [
      undefined,
      { transport: 'grpc' as const },
      { timeScale: 5 },
      { transport: 'grpc' as const, timeScale: 5 },
      { timeScale: 10 },
    ])
      expect(simNetCalibrationOf(s, (entry(d) as { entry: never }).entry)).toBe(calibrationOf(a, entry(d)));
  });
});

describe('the calibration lines (comparison.txt, compare, the report header)', () => {
  it('one line when there is one calibration point, else one each, named by what varies', () => {
    expect(calibrationLines({ calibrations: [], calibration: null })).toEqual([
      'calibration: none (the matrix has no calibration point); latency verdicts use no allowance (0 ms)',
    ]);
    const none = null as unknown as Calibration;
    const g = (k: number, t: 'http1' | 'grpc') => group(k, t, none);
    const lines = (cs: TimeScaleCalibration[]) =>
      calibrationLines({ calibrations: cs, calibration: null }).map((l) =>
        l.slice(0, l.indexOf('calibration:')),
      );
    expect(lines([g(1, 'http1')])).toEqual(['']);
    expect(lines([g(1, 'http1'), g(1, 'grpc')])).toEqual(['over HTTP/1.1: ', 'over gRPC: ']);
    expect(lines([g(1, 'http1'), g(5, 'http1')])).toEqual(['time scale 1: ', 'time scale 5: ']);
    expect(lines([g(1, 'http1'), g(1, 'grpc'), g(5, 'http1')])).toEqual([
      'time scale 1, over HTTP/1.1: ',
      'time scale 1, over gRPC: ',
      'time scale 5, over HTTP/1.1: ',
    ]);
  });
});
