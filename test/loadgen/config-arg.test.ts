// Reading --config / --model, the record line format, and the bounded in-flight timeline.

import { describe, expect, it } from 'vitest';
import { CALL_FIELDS } from '../../contract/index.ts';
import { parseConfigArg, parseModelArg } from '../../loadgen/config-arg.ts';
import { callLine } from '../../loadgen/result.ts';
import { InflightTimeline } from '../../loadgen/timeline.ts';
import { REFERENCE_CONFIGS } from '../../model/index.ts';

describe('parseConfigArg', () => {
  it('resolves every reference name to a copy of its configuration', () => {
    for (const c of REFERENCE_CONFIGS) {
      const got = parseConfigArg(c.name);
      expect(got).toEqual(c);
      expect(got).not.toBe(c);
    }
  });

  it('reads a JSON HedgeConfig and names the flag when it is not one', () => {
    expect(parseConfigArg('{"name":"mine","hedge":{"delayMs":5}}')).toEqual({
      name: 'mine',
      hedge: { delayMs: 5 },
    });
    expect(() => parseConfigArg('hedge')).toThrow(/--config "hedge" is neither a reference configuration/);
    expect(() => parseConfigArg('{"name":')).toThrow(/--config is not valid JSON/);
    expect(() => parseConfigArg('{"name":"x"')).toThrowError(
      expect.objectContaining({ code: 'HB_CONFIG_INVALID' }),
    );
  });

  it('reads --model as a JSON object', () => {
    expect(parseModelArg(undefined)).toBeUndefined();
    expect(parseModelArg('{"workers":4}')).toEqual({ workers: 4 });
    expect(() => parseModelArg('[1]')).toThrow(/--model must be a JSON object/);
  });
});

describe('callLine', () => {
  it('writes the CALL_FIELDS in order with microsecond precision', () => {
    const line = callLine(42, 1234.56789, 0.0123456, 20.5, 'ok', 2, 0, 2, 1254.6);
    expect(line).toBe('42,1234.568,0.012,20.500,ok,2,0,2,1254.600');
    expect(line.split(',').length).toBe(CALL_FIELDS.length);
    // No winner: the write time of the winner is an empty cell, not NaN.
    expect(callLine(7, 1, 0, 5, 'failed', 1, 0, 0, Number.NaN)).toBe('7,1.000,0.000,5.000,failed,1,0,0,');
  });
});

describe('InflightTimeline', () => {
  it('keeps at most max samples, spread over the whole run, oldest first', () => {
    const t = new InflightTimeline(100);
    for (let i = 0; i < 10_000; i++) t.add(i / 4, i);
    const s = t.toArray();
    expect(s.length).toBeLessThan(100);
    expect(s.length).toBeGreaterThan(25);
    expect(s[0]).toEqual([0, 0]);
    expect(s[s.length - 1]![1]).toBeGreaterThan(9_000);
    for (let i = 1; i < s.length; i++) expect(s[i]![0]).toBeGreaterThan(s[i - 1]![0]);
  });
});
