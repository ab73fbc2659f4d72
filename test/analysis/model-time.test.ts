// A dilated point's status read in model time: the send lag's figures and its reason say the same model ms.
import { describe, expect, it } from 'vitest';
import { statusInModelTime } from '../../analysis/read/model-time.ts';
import { type PointStatus, sendLagReason } from '../../contract/index.ts';

/** A status as a load generator at time scale 10 writes it: 1 model-ms threshold = 10 wall ms. */
function dilatedStatus(): PointStatus {
  const rate = "achieved rate 45.1/s is 3.10 % off the schedule's 43.7/s (allowed 2.00 %)";
  const selfCheck = {
    sendLag: { n: 900, p50Ms: 0.4, p99Ms: 16.979, maxMs: 31, thresholdMs: 10 },
    valid: false,
    reasons: [sendLagReason(16.979, 10), rate],
  };
  return {
    state: 'done',
    summary: { selfCheck, valid: false, reasons: [...selfCheck.reasons, 'another check'] },
  } as unknown as PointStatus;
}

describe('statusInModelTime', () => {
  it("writes a dilated point's send-lag reason again in model ms, beside its figures", () => {
    const s = statusInModelTime(dilatedStatus(), 10) as unknown as {
      summary: { reasons: string[]; selfCheck: { sendLag: { p99Ms: number }; reasons: string[] } };
    };
    expect(s.summary.selfCheck.sendLag.p99Ms).toBeCloseTo(1.6979, 9);
    expect(s.summary.reasons[0]).toBe('send-lag p99 1.698 ms exceeds the threshold 1 ms');
    expect(s.summary.selfCheck.reasons[0]).toBe(s.summary.reasons[0]);
    // the other reasons stay as written
    expect(s.summary.reasons.slice(1)).toEqual((dilatedStatus().summary?.reasons ?? []).slice(1));
  });

  it('leaves an undilated status as it is', () => {
    const before = dilatedStatus();
    expect(statusInModelTime(before, 1)).toBe(before);
  });
});
