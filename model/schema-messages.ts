// The matrix schema in its user's words: a number field whose messages say what the number is, and the
// text of a zod issue as the error list shows it (zod's own wording names types, not fixes).

import { z } from 'zod';

/** A number field that must be > 0; `what` says in its messages what the number is, e.g. "hedge delay in ms". */
export const positive = (what: string) =>
  z.number({ invalid_type_error: `must be a number (${what})` }).positive(`must be > 0 (${what})`);

/** The message of one zod issue, in words that say how to fix the field. */
export function issueText(i: z.ZodIssue): string {
  if (i.code === 'unrecognized_keys') {
    return `unknown field(s) ${i.keys.map((k) => JSON.stringify(k)).join(', ')}; remove them or check the spelling`;
  }
  // A field's own required_error says what to write; zod's default ("Required") only names the type.
  if (i.code === 'invalid_type' && i.received === 'undefined')
    return i.message !== 'Required' ? i.message : `is required (${i.expected})`;
  if (i.code === 'invalid_union_discriminator') {
    return `must be one of ${i.options.map((o) => JSON.stringify(o)).join(', ')}; check the spelling`;
  }
  if (i.code === 'invalid_type' && i.expected === 'integer') return 'must be a whole number';
  if (i.code === 'invalid_type' && i.message.startsWith('Expected')) {
    return `must be ${i.expected}, got ${i.received}`;
  }
  return i.message;
}
