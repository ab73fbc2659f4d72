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
  fix?: string,
): number | undefined {
  if (value === undefined) return undefined;
  const range = `must be ${integer ? 'an integer' : 'a number'} in ${min}..${max === Number.POSITIVE_INFINITY ? '∞' : max}`;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ConfigError(field, value, range, fix);
  if (value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new ConfigError(field, value, range, fix);
  }
  return value;
}

/** checkNumber over one of the exported ranges (ranges.ts), honouring exclusive bounds; `fix` as ConfigError's. */
export function checkRange(field: string, value: unknown, r: OptionRange, fix?: string): number | undefined {
  if (r.minExclusive !== true && r.maxExclusive !== true) {
    return checkNumber(field, value, r.min, r.max, r.integer === true, fix);
  }
  if (value === undefined) return undefined;
  const top = r.max === Number.POSITIVE_INFINITY ? '∞)' : `${r.max}${r.maxExclusive ? ')' : ']'}`;
  const range = `must be ${r.integer ? 'an integer' : 'a number'} in ${r.minExclusive ? '(' : '['}${r.min}, ${top}`;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ConfigError(field, value, range, fix);
  const low = r.minExclusive ? value <= r.min : value < r.min;
  const high = r.maxExclusive ? value >= r.max : value > r.max;
  if (low || high || (r.integer && !Number.isInteger(value))) throw new ConfigError(field, value, range, fix);
  return value;
}

/** Throws unless `value` is undefined or one of `choices` (string options such as winner rules). */
export function checkChoice<C extends string>(
  field: string,
  value: unknown,
  choices: readonly C[],
): C | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as C;
  throw new ConfigError(field, value, `must be one of ${choices.map((c) => `'${c}'`).join(', ')}`);
}

/** Throws unless `value` is a present option object (the parent of nested fields). */
export function checkObject(field: string, value: unknown, shape: string): asserts value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(field, value, `must be an object ${shape}`);
  }
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
