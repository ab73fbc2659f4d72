// The shapes a hedge budget may take (`hedge.budget`): the ratio budget (the default), a cap on hedges in
// flight (Envoy's retry budget), gRFC A6's token bucket, or server pushback alone. Options, validation,
// defaults.
import { checkA6Throttle } from './a6-throttle.ts';
import { ConfigError } from './errors.ts';
import { HEDGE_BUDGET_RANGES } from './ranges.ts';
import { checkBoolean, checkChoice, checkKnownKeys, checkObject, checkRange } from './validate.ts';

/** The budget kinds, in the order the docs present them. */
export const BUDGET_KINDS = ['ratio', 'concurrency', 'tokens', 'pushback'] as const;
export type BudgetKind = (typeof BUDGET_KINDS)[number];

/**
 * `hedge.budget` as a user writes it. `pushback: true` on the first three also honours server pushback
 * (an attempt's `Outcome.pushbackMs`); the `pushback` kind honours it with no other bound.
 */
export type HedgeBudgetShape =
  /** Today's windowed ratio budget, set by budgetPercent / budgetMinHedgesPerSecond / budgetWindowMs. */
  | { kind: 'ratio'; pushback?: boolean }
  /** Hedges in flight ≤ max(min, floor(percent % of calls in flight)); defaults 20 % and 3 (Envoy's). */
  | { kind: 'concurrency'; percent?: number; min?: number; pushback?: boolean }
  /** gRFC A6 retryThrottling over hedges: −1 per hedge sent and per failed attempt, +tokenRatio per success. */
  | { kind: 'tokens'; maxTokens: number; tokenRatio: number; pushback?: boolean }
  /** No bound but the server's: after an outcome with pushbackMs > 0, no hedge starts for that long. */
  | { kind: 'pushback' };

/** `hedge.budget` with the defaults filled in (no durations: nothing here dilates). */
export type HedgeBudgetSettings =
  | { kind: 'ratio'; pushback: boolean }
  | { kind: 'concurrency'; percent: number; min: number; pushback: boolean }
  | { kind: 'tokens'; maxTokens: number; tokenRatio: number; pushback: boolean }
  | { kind: 'pushback'; pushback: true };

/** The shape when `budget` is left out: the ratio budget, no pushback. */
export const DEFAULT_BUDGET: HedgeBudgetSettings = Object.freeze({ kind: 'ratio', pushback: false });

/** Envoy's retry budget defaults, also failsafe-go's Budget: 20 % of requests in flight, at least 3. */
export const CONCURRENCY_DEFAULTS = Object.freeze({ percent: 20, min: 3 });

const KNOWN: Record<BudgetKind, readonly string[]> = {
  ratio: ['kind', 'pushback'],
  concurrency: ['kind', 'percent', 'min', 'pushback'],
  tokens: ['kind', 'maxTokens', 'tokenRatio', 'pushback'],
  pushback: ['kind'],
};

/** Validates `hedge.budget` and fills in its defaults; throws ConfigError naming the field and the fix. */
export function resolveHedgeBudget(o: HedgeBudgetShape, prefix = 'hedge.budget'): HedgeBudgetSettings {
  checkObject(prefix, o, `{ kind: ${BUDGET_KINDS.map((k) => `'${k}'`).join(' | ')}, … }`);
  const kind = checkChoice(`${prefix}.kind`, o.kind, BUDGET_KINDS);
  if (kind === undefined) {
    throw new ConfigError(
      `${prefix}.kind`,
      kind,
      `is required: one of ${BUDGET_KINDS.join(', ')}`,
      `Name the shape, or drop ${prefix} for the ratio budget.`,
    );
  }
  checkKnownKeys(prefix, o, KNOWN[kind]);
  const pushback = checkBoolean(`${prefix}.pushback`, (o as { pushback?: unknown }).pushback) ?? false;
  const R = HEDGE_BUDGET_RANGES;
  switch (o.kind) {
    case 'ratio':
      return { kind: 'ratio', pushback };
    case 'concurrency':
      return {
        kind: 'concurrency',
        percent: checkRange(`${prefix}.percent`, o.percent, R.percent) ?? CONCURRENCY_DEFAULTS.percent,
        min: checkRange(`${prefix}.min`, o.min, R.min) ?? CONCURRENCY_DEFAULTS.min,
        pushback,
      };
    case 'tokens':
      for (const [f, e] of [
        ['maxTokens', '10'],
        ['tokenRatio', '0.1'],
      ] as const) {
        if (o[f] === undefined) {
          throw new ConfigError(
            `${prefix}.${f}`,
            undefined,
            'is required',
            `It has no default: set it (e.g. ${e}).`,
          );
        }
      }
      // The bucket is A6Throttle's, so its rules are A6's (maxTokens in (0, 1000], tokenRatio > 0, ≤ 3 decimals).
      checkA6Throttle({ maxTokens: o.maxTokens, tokenRatio: o.tokenRatio }, prefix);
      return { kind: 'tokens', maxTokens: o.maxTokens, tokenRatio: o.tokenRatio, pushback };
    default:
      return { kind: 'pushback', pushback: true };
  }
}
