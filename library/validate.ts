// Option checks shared by the policy factories: each failure is a ConfigError naming field, value and range.
import { ConfigError } from './errors.ts';
import type { OptionRange } from './ranges.ts';

/** Throws unless `value` is undefined or a finite number in [min, max] (an integer if `integer`). */
export function checkNumber(
  field: string,
  value: unknown,
  min: number,
  max: number,
  integer = false,
): number | undefined {
  if (value === undefined) return undefined;
  const range = `must be ${integer ? 'an integer' : 'a number'} in ${min}..${max === Number.POSITIVE_INFINITY ? '∞' : max}`;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ConfigError(field, value, range);
  if (value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new ConfigError(field, value, range);
  }
  return value;
}

/** checkNumber over one of the exported ranges (ranges.ts). */
export function checkRange(field: string, value: unknown, r: OptionRange): number | undefined {
  return checkNumber(field, value, r.min, r.max, r.integer === true);
}

/** Throws unless `value` is undefined or a boolean. */
export function checkBoolean(field: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new ConfigError(field, value, 'must be true or false');
}

/** Throws unless `value` is undefined or a function. */
export function checkFunction<F>(field: string, value: unknown): F | undefined {
  if (value === undefined || typeof value === 'function') return value as F | undefined;
  throw new ConfigError(field, value, 'must be a function (error) => boolean');
}

/** Throws when `options` has a key not in `known` (a typo would otherwise silently mean "default"). */
export function checkKnownKeys(prefix: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new ConfigError(
        `${prefix}.${key}`,
        (options as Record<string, unknown>)[key],
        `unknown option; known: ${known.join(', ')}`,
      );
    }
  }
}
