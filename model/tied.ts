// Tied requests (Dean & Barroso, "The Tail at Scale"): a call's copies queued on distinct replicas at once (or
// `gapMs` apart), each tagged with the others; the server that starts its copy first cancels the others, which
// leave if they are still queued. The configuration kind, its defaults and checks, and its mapping onto the
// library: a hedge with delayMs = gapMs and maxAttempts = copies (so the budget must allow each further copy,
// and the adaptive limit takes a permit for each), plus the flag the transport reads (peerCancelCopies).

import { ConfigError, HEDGE_RANGES } from '../library/index.ts';
import type { HedgeConfig, HedgeOptions } from './hedge-config.ts';

/** When a tied call's copies cancel each other: `on-start` (the server that starts one cancels the others
 * while queued: Dean & Barroso's tie), `on-response` (the client cancels the losers: today's hedge). */
export const TIED_CANCELS = ['on-start', 'on-response'] as const;
type TiedCancel = (typeof TIED_CANCELS)[number];

/** A configuration's `tied` as a user writes it; the budget fields are the hedge's, with its defaults. */
export interface TiedOptions {
  /** Copies per call, each to a distinct replica (default 2; 2..10 and at most the point's replicas). */
  copies?: number;
  /** ms between one copy and the next (≥ 0; 0 = all at once). Required. */
  gapMs: number;
  /** Default `on-start`. */
  cancel?: TiedCancel;
  budgetPercent?: number;
  budgetMinHedgesPerSecond?: number;
  budgetWindowMs?: number;
}

/** The resolved settings of a tied configuration. */
interface TiedSettings {
  copies: number;
  gapMs: number;
  cancel: TiedCancel;
}

const KNOWN = ['copies', 'gapMs', 'cancel', 'budgetPercent', 'budgetMinHedgesPerSecond', 'budgetWindowMs'];
const MAX_COPIES = HEDGE_RANGES.maxAttempts.max;

/** Validates `tied` and fills in its defaults; throws ConfigError naming the field and the fix. */
export function resolveTied(t: TiedOptions, prefix = 'tied'): TiedSettings {
  if (typeof t !== 'object' || t === null || Array.isArray(t)) {
    throw new ConfigError(prefix, t, 'must be an object { gapMs, copies?, cancel? }');
  }
  for (const key of Object.keys(t)) {
    if (!KNOWN.includes(key)) {
      throw new ConfigError(
        `${prefix}.${key}`,
        (t as unknown as Record<string, unknown>)[key],
        `unknown option; known: ${KNOWN.join(', ')}`,
      );
    }
  }
  const gap = t.gapMs;
  if (typeof gap !== 'number' || !(gap >= 0) || gap === Number.POSITIVE_INFINITY) {
    throw new ConfigError(
      `${prefix}.gapMs`,
      gap,
      'must be a number ≥ 0: the ms between one copy and the next (0 = all copies at once)',
      'Give it, e.g. "gapMs": 1.',
    );
  }
  const copies = t.copies ?? 2;
  if (!Number.isInteger(copies) || copies < 2 || copies > MAX_COPIES) {
    throw new ConfigError(
      `${prefix}.copies`,
      copies,
      `must be a whole number in 2..${MAX_COPIES} (1 copy is a plain call: drop \`tied\`)`,
    );
  }
  const cancel = t.cancel ?? 'on-start';
  if (!TIED_CANCELS.includes(cancel)) {
    throw new ConfigError(`${prefix}.cancel`, cancel, `must be one of ${TIED_CANCELS.join(', ')}`);
  }
  return { copies, gapMs: gap, cancel };
}

/**
 * The library hedge a tied configuration runs as: copy k+1 starts gapMs after copy k, while the budget allows
 * it. With cancel `on-response` this is exactly the hedge `{ delayMs: gapMs, maxAttempts: copies, …budget }`.
 */
export function tiedHedgeOptions(t: TiedOptions): HedgeOptions {
  const out: HedgeOptions = { delayMs: t.gapMs, maxAttempts: t.copies ?? 2 };
  if (t.budgetPercent !== undefined) out.budgetPercent = t.budgetPercent;
  if (t.budgetMinHedgesPerSecond !== undefined) out.budgetMinHedgesPerSecond = t.budgetMinHedgesPerSecond;
  if (t.budgetWindowMs !== undefined) out.budgetWindowMs = t.budgetWindowMs;
  return out;
}

/**
 * How many copies of each call cancel each other when one starts: the flag a transport reads. 0 = none (no
 * `tied`, or cancel `on-response`, which a transport runs as any hedge).
 */
export function peerCancelCopies(config: HedgeConfig): number {
  const t = config.tied;
  if (t === undefined || (t.cancel ?? 'on-start') !== 'on-start') return 0;
  return t.copies ?? 2;
}

/** Refuses a point whose replicas cannot hold a tied configuration's copies (ConfigError naming the fix). */
export function checkTiedReplicas(config: HedgeConfig, replicas: number): void {
  const t = config.tied;
  if (t === undefined) return;
  const copies = t.copies ?? 2;
  if (replicas < copies) {
    throw new ConfigError(
      `config ${JSON.stringify(config.name)}.tied.copies`,
      copies,
      `needs as many replicas as copies (each copy queues on a replica of its own), and the point has ${replicas}`,
      'Give the point replicas ≥ copies, or lower copies.',
    );
  }
}

/**
 * What a matrix's own fields make impossible for a tied configuration (at `where`): one replica, more copies
 * than replicas, a foreign target (its servers cannot cancel each other). One message per problem.
 */
export function tiedMatrixIssues(
  config: HedgeConfig,
  where: string,
  m: { replicas?: number[]; target?: unknown },
): string[] {
  const t = config.tied;
  if (t === undefined || typeof t !== 'object' || t === null) return [];
  const name = JSON.stringify(config.name);
  if (m.target !== undefined) {
    return [
      `${where}.tied: ${name} ties copies on hedgebench's own replicas, whose servers cancel each other; a foreign target (target.url) cannot cancel between its servers. Remove tied (a hedge with delayMs = gapMs is what such a service can be measured with), or the target`,
    ];
  }
  const replicas = m.replicas ?? [1];
  const fewest = Math.min(...replicas);
  if (fewest < 2) {
    return [
      `${where}.tied: ${name} queues its copies on distinct replicas and the matrix runs it with ${fewest} replica; list replicas ≥ 2 only (e.g. "replicas": [2, 4]), or give the tied configuration a matrix of its own`,
    ];
  }
  const copies = t.copies ?? 2;
  if (Number.isInteger(copies) && copies > fewest) {
    return [
      `${where}.tied.copies: ${copies} copies need ${copies} distinct replicas and the matrix runs ${name} with ${fewest}; lower copies to ${fewest} or list only replicas ≥ ${copies}`,
    ];
  }
  return [];
}
