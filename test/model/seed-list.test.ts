// `--seed`'s text: one seed, a range, a list of both; everything else is refused whole.
import { describe, expect, it } from 'vitest';
import { MAX_FLAG_SEEDS, overrideMatrix, parseMatrix, parseSeedList } from '../../model/index.ts';

describe('parseSeedList', () => {
  it('reads one seed, a range and a list, in the order written', () => {
    expect(parseSeedList('3')).toEqual([3]);
    expect(parseSeedList('0')).toEqual([0]);
    expect(parseSeedList('1-4')).toEqual([1, 2, 3, 4]);
    expect(parseSeedList('9, 1-2 ,5')).toEqual([9, 1, 2, 5]);
    expect(parseSeedList('7-7')).toEqual([7]);
  });

  it('refuses what names no seed, a seed twice, a backwards range or too many seeds', () => {
    for (const bad of ['', 'abc', '-1', '1.5', '1,', ',1', '1--3', '4-2', '1-3,2', '1,1', '1 2']) {
      expect(parseSeedList(bad), bad).toBeNull();
    }
    expect(parseSeedList(`1-${MAX_FLAG_SEEDS}`)).toHaveLength(MAX_FLAG_SEEDS);
    expect(parseSeedList(`0-${MAX_FLAG_SEEDS}`)).toBeNull();
    expect(parseSeedList('1-9007199254740993')).toBeNull();
  });

  it('replaces the matrix seeds, as run and simulate apply it', () => {
    const m = parseMatrix({
      name: 'm',
      configs: ['no hedge'],
      loads: [0.5],
      cancellation: ['ignore'],
      seeds: [1],
      calls: 100,
    });
    expect(overrideMatrix(m, { seeds: parseSeedList('2-3')! }).seeds).toEqual([2, 3]);
  });
});
