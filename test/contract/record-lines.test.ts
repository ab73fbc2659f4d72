// The call and attempt line writers (contract/call-line.ts, contract/attempt-line.ts): exact bytes, and a
// round trip through the raw-file readers analysis uses.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAttemptsCsv, readCallsCsv } from '../../analysis/index.ts';
import { ATTEMPT_FIELDS, attemptFields, attemptLine, CALL_FIELDS, callLine } from '../../contract/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'hb-record-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, header: readonly string[], lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${[header.join(','), ...lines].join('\n')}\n`);
  return path;
}

describe('callLine', () => {
  it('writes the CALL_FIELDS in order with microsecond precision', () => {
    const line = callLine(42, 1234.56789, 0.0123456, 20.5, 'ok', 2, 0, 2, 1254.6);
    expect(line).toBe('42,1234.568,0.012,20.500,ok,2,0,2,1254.600');
    expect(line.split(',').length).toBe(CALL_FIELDS.length);
    // No winner: the write time of the winner is an empty cell, not NaN.
    expect(callLine(7, 1, 0, 5, 'failed', 1, 0, 0, Number.NaN)).toBe('7,1.000,0.000,5.000,failed,1,0,0,');
  });

  it('reads back as written', () => {
    const c = readCallsCsv(
      file('a.calls.csv', CALL_FIELDS, [
        callLine(0, 1.5, 0.25, 20.125, 'ok', 2, 0, 2, 3.75),
        callLine(1, 2, 0, 5, 'rejected', 1, 1, 0, Number.NaN),
      ]),
    );
    expect(c.n).toBe(2);
    expect([...c.call]).toEqual([0, 1]);
    expect([...c.intendedMs]).toEqual([1.5, 2]);
    expect([...c.sendLagMs]).toEqual([0.25, 0]);
    expect([...c.latencyMs]).toEqual([20.125, 5]);
    expect([...c.attempts]).toEqual([2, 1]);
    expect([...c.skipped]).toEqual([0, 1]);
    expect([...c.winner]).toEqual([2, 0]);
    expect(c.winnerWrittenMs[0]).toBe(3.75);
    expect(c.winnerWrittenMs[1]).toBeNaN();
  });

  it('a line that is not a call record gets an error naming the problem', () => {
    const path = file('bad.calls.csv', CALL_FIELDS, ['0,1.000,0.000,5.000,maybe,1,0,0,']);
    expect(() => readCallsCsv(path)).toThrow(/outcome must be ok\|rejected\|failed/);
  });
});

describe('attemptLine', () => {
  it('writes the ATTEMPT_FIELDS in order, empty start and responded when there are none', () => {
    const line = attemptLine(3, 2, 10, 12.5, 20.0004, 'served', 4, 7.25, 20.1);
    expect(line).toBe('3,2,10.000,12.500,20.000,served,4,7.250,20.100');
    expect(line.split(',').length).toBe(ATTEMPT_FIELDS.length);
    expect(attemptLine(3, 1, 10, Number.NaN, 11, 'cancelled-queued', -1, 7, Number.NaN)).toBe(
      '3,1,10.000,,11.000,cancelled-queued,-1,7.000,',
    );
    // Several replicas: the replica is the last cell, as attemptFields(R > 1) says.
    const replicated = attemptLine(3, 2, 10, 12.5, 20, 'served', 4, 7.25, 20.1, 1);
    expect(replicated).toBe('3,2,10.000,12.500,20.000,served,4,7.250,20.100,1');
    expect(replicated.split(',').length).toBe(attemptFields(2).length);
  });

  it('reads back as written, with and without the replica column', () => {
    const one = readAttemptsCsv(
      file('a.attempts.csv', ATTEMPT_FIELDS, [
        attemptLine(0, 1, 1, 2, 12, 'served', 3, 10, 12.5),
        attemptLine(0, 2, 5, Number.NaN, 6, 'cancelled-queued', -1, 9, Number.NaN),
      ]),
    );
    expect(one.n).toBe(2);
    expect([...one.attempt]).toEqual([1, 2]);
    expect([...one.enqueueMs]).toEqual([1, 5]);
    expect(one.startMs[0]).toBe(2);
    expect(one.startMs[1]).toBeNaN();
    expect(one.ended).toEqual(['served', 'cancelled-queued']);
    expect([...one.worker]).toEqual([3, -1]);
    expect([...one.serviceMs]).toEqual([10, 9]);
    expect(one.respondedMs[0]).toBe(12.5);
    expect(one.respondedMs[1]).toBeNaN();
    expect(one.replica).toBeUndefined();
    const two = readAttemptsCsv(
      file('b.attempts.csv', attemptFields(2), [attemptLine(0, 1, 1, 2, 12, 'served', 3, 10, 12.5, 1)]),
    );
    expect([...two.replica!]).toEqual([1]);
  });
});
