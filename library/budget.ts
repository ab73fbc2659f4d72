// The hedge budget: a windowed token bucket in integer units, shared by all calls through one HedgePolicy.
// Calls deposit, hedges withdraw; credits and debits expire with the window, a fixed reserve is always there.

/** Parameters of a HedgeBudget (already validated by the HedgePolicy). */
export interface HedgeBudgetOptions {
  /** Hedges allowed as a percentage of calls, > 0 and <= 100. */
  percent: number;
  /** Hedges always allowed per second of window, on top of the percentage (>= 0). */
  minPerSecond: number;
  /** Window length in ms; split into 10 slots that expire lazily. */
  windowMs: number;
}

/** Number of slots a budget window is split into. */
const BUDGET_SLOTS = 10;

/** Units one call deposits. */
export const BUDGET_DEPOSIT = 1000;

/**
 * Windowed token bucket (integer units, so no float drift): each call deposits 1000, each hedge withdraws
 * floor(1000 / ratio); the balance is the sum of the live slots plus a reserve of min × windowSeconds × cost.
 * A withdraw succeeds only if the balance covers it; a denied withdraw changes nothing.
 */
export class HedgeBudget {
  /** Units one hedge costs: floor(1000 / ratio). */
  readonly cost: number;
  /** Units always available on top of the live slots. */
  readonly reserve: number;
  private readonly slotMs: number;
  private readonly slots = new Float64Array(BUDGET_SLOTS);
  private sum = 0;
  private epoch = Number.NaN;

  constructor(options: HedgeBudgetOptions) {
    this.cost = Math.floor((BUDGET_DEPOSIT * 100) / options.percent);
    this.reserve = Math.floor(options.minPerSecond * Math.floor(options.windowMs / 1000)) * this.cost;
    this.slotMs = options.windowMs / BUDGET_SLOTS;
  }

  /** Records one call (1000 units) in the current slot. */
  deposit(now: number): void {
    const i = this.advance(now);
    this.slots[i] += BUDGET_DEPOSIT;
    this.sum += BUDGET_DEPOSIT;
  }

  /** Takes one hedge's cost if the balance covers it; returns whether it did. */
  tryWithdraw(now: number): boolean {
    const i = this.advance(now);
    if (this.sum + this.reserve < this.cost) return false;
    this.slots[i] -= this.cost;
    this.sum -= this.cost;
    return true;
  }

  /** Units available now (live slots + reserve). */
  balance(now: number): number {
    this.advance(now);
    return this.sum + this.reserve;
  }

  /** Hedges the balance allows now: floor(balance / cost). */
  hedgesAvailable(now: number): number {
    return Math.floor(this.balance(now) / this.cost);
  }

  // Zeroes the slots whose time has passed since the last access and returns the current slot index.
  private advance(now: number): number {
    const e = Math.floor(now / this.slotMs);
    const last = this.epoch;
    if (e !== last) {
      if (Number.isNaN(last) || e - last >= BUDGET_SLOTS) {
        this.slots.fill(0);
        this.sum = 0;
      } else if (e > last) {
        for (let k = last + 1; k <= e; k++) {
          const j = mod(k);
          this.sum -= this.slots[j];
          this.slots[j] = 0;
        }
      } else {
        // Time never runs backwards on our clocks; if it did, keep writing to the slot we are in.
        return mod(last);
      }
      this.epoch = e;
    }
    return mod(e);
  }
}

function mod(k: number): number {
  const r = k % BUDGET_SLOTS;
  return r < 0 ? r + BUDGET_SLOTS : r;
}
