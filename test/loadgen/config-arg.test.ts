// Reading --config / --model, and the bounded in-flight timeline.

import { describe, expect, it } from 'vitest';
import { parseConfigArg, parseModelArg } from '../../loadgen/config-arg.ts';
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
