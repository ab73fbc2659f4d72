// HedgeBudget arithmetic on hand-computed sequences of calls and windows (integer units, 10 lazy slots).
import { describe, expect, it } from 'vitest';
import { HedgeBudget } from '../../library/index.ts';

const defaults = { percent: 10, minPerSecond: 1, windowMs: 10_000 };

describe('HedgeBudget', () => {
  it('derives cost and reserve: 10 % → 10 000 per hedge, reserve 1 × 10 s × 10 000', () => {
    const b = new HedgeBudget(defaults);
    expect(b.cost).toBe(10_000);
    expect(b.reserve).toBe(100_000);
    const five = new HedgeBudget({ ...defaults, percent: 5 });
    expect(five.cost).toBe(20_000);
    expect(five.reserve).toBe(200_000);
    const short = new HedgeBudget({ percent: 25, minPerSecond: 2, windowMs: 5_500 });
    expect(short.cost).toBe(4_000);
    expect(short.reserve).toBe(2 * 5 * 4_000);
  });

  it('from idle, calls that each hedge: 11 succeed, then one in ten', () => {
    // Call k deposits 1000 and then tries 10 000: balance before the k-th withdraw = 100 000 + 1000k − 10 000(k−1),
    // ≥ 10 000 for k ≤ 11. After the 11th: 100 000 + 11 000 − 110 000 = 1000; each further call adds 1000,
    // so the 20th call (balance 10 000) hedges again, leaving 0.
    const b = new HedgeBudget(defaults);
    const granted: number[] = [];
    for (let k = 1; k <= 30; k++) {
      b.deposit(0);
      if (b.tryWithdraw(0)) granted.push(k);
    }
    expect(granted).toEqual([...Array.from({ length: 11 }, (_, i) => i + 1), 20, 30]);
    expect(b.balance(0)).toBe(100_000 + 30_000 - 13 * 10_000);
  });

  it('a denied withdraw changes nothing', () => {
    const b = new HedgeBudget({ percent: 10, minPerSecond: 0, windowMs: 10_000 });
    for (let k = 0; k < 9; k++) b.deposit(0);
    expect(b.balance(0)).toBe(9_000);
    expect(b.tryWithdraw(0)).toBe(false);
    expect(b.balance(0)).toBe(9_000);
    b.deposit(0);
    expect(b.tryWithdraw(0)).toBe(true);
    expect(b.balance(0)).toBe(0);
  });

  it('debits and credits expire with their slot, ten slots of window/10 after', () => {
    const b = new HedgeBudget(defaults);
    for (let k = 0; k < 10; k++) expect(b.tryWithdraw(0)).toBe(true);
    expect(b.tryWithdraw(0)).toBe(false);
    expect(b.tryWithdraw(9_999.9)).toBe(false); // slot 0 is still live
    expect(b.tryWithdraw(10_000)).toBe(true); // slot 0 expired: the reserve is whole again
    expect(b.balance(10_000)).toBe(90_000);
  });

  it('expires slot by slot over a sequence of windows', () => {
    // percent 10, no reserve. Deposits: 5 at t=0 (slot 0), 5 at t=5000 (slot 5), 3 at t=12 500 (slot 12).
    const b = new HedgeBudget({ percent: 10, minPerSecond: 0, windowMs: 10_000 });
    for (let k = 0; k < 5; k++) b.deposit(0);
    for (let k = 0; k < 5; k++) b.deposit(5_000);
    expect(b.balance(9_999)).toBe(10_000); // slots 0..9 live
    expect(b.balance(10_000)).toBe(5_000); // slot 0 gone
    for (let k = 0; k < 3; k++) b.deposit(12_500);
    expect(b.balance(14_999)).toBe(8_000); // slots 5..14 live: 5000 + 3000
    expect(b.balance(15_000)).toBe(3_000); // slot 5 gone
    expect(b.balance(22_999)).toBe(0); // slot 12 gone at 22 000
    // A jump of more than a window clears everything at once.
    b.deposit(23_000);
    expect(b.balance(100_000)).toBe(0);
  });

  it('reserve alone: min 2/s over a 5 s window allows exactly 10 hedges per window', () => {
    const b = new HedgeBudget({ percent: 50, minPerSecond: 2, windowMs: 5_000 });
    let n = 0;
    while (b.tryWithdraw(1_000)) n++;
    expect(n).toBe(10);
    expect(b.tryWithdraw(5_999)).toBe(false);
    expect(b.tryWithdraw(6_000)).toBe(true);
  });
});
