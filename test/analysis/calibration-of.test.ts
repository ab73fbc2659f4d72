// Which calibration point stands for a point (analysis/judge/time-scale-calibration.ts): its own time scale's
// and transport's; its scale's first when its transport has none — sim+net takes its transport from it —
// and the lines that name each calibration.
import { describe, expect, it } from 'vitest';
import type { Calibration } from '../../analysis/judge/calibration.ts';
import {
  calibrationFor,
  calibrationLines,
  type TimeScaleCalibration,
} from '../../analysis/judge/time-scale-calibration.ts';

const group = (k: number, transport: 'http1' | 'grpc', c: Calibration | null) =>
  ({
    k,
    transport,
    group: `${k}|${transport}`,
    calibration: c,
    point: { rows: [] },
  }) as unknown as TimeScaleCalibration;

describe('the calibration that stands for a point', () => {
  const byGroup = new Map([
    ['1|http1', 'http1 at 1'],
    ['1|grpc', 'grpc at 1'],
    ['5|http1', 'http1 at 5'],
  ]);
  const at = (dims?: { transport?: 'grpc'; timeScale?: number }) => calibrationFor(byGroup, { dims });

  it('its own scale and transport, else its scale first, else none', () => {
    expect(at()).toBe('http1 at 1');
    expect(at({ transport: 'grpc' })).toBe('grpc at 1');
    expect(at({ timeScale: 5 })).toBe('http1 at 5');
    expect(at({ transport: 'grpc', timeScale: 5 })).toBe('http1 at 5');
    expect(at({ timeScale: 10 })).toBeUndefined();
  });
});

describe('the calibration lines (comparison.txt, compare, the report header)', () => {
  it('one line when there is one calibration point, else one each, named by what varies', () => {
    expect(calibrationLines({ calibrations: [], calibration: null })).toEqual([
      'calibration: none (the matrix has no calibration point)',
    ]);
    const g = (k: number, t: 'http1' | 'grpc') => group(k, t, null);
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
