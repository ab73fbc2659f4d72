// docs/matrix.md is the user's reference for the matrix file: every field the schema accepts must be in
// its tables, and every field its tables name must exist, so the page cannot drift from the code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matrixSchema } from '../../model/matrix-schema.ts';

const doc = readFileSync(new URL('../../docs/matrix.md', import.meta.url), 'utf8');

/** The first-column field names of the table that follows a header line starting with `| <label>`. */
function tableFields(label: string): string[] {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${label}`));
  expect(start, `a table headed "${label}" in docs/matrix.md`).toBeGreaterThanOrEqual(0);
  const out: string[] = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    out.push(...[...l.split('|')[1].matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]));
  }
  return out.sort();
}

const keys = (o: { shape: Record<string, unknown> }) => Object.keys(o.shape).sort();
const inner = (k: string) => {
  let s = matrixSchema.shape[k as keyof typeof matrixSchema.shape] as unknown as {
    _def: { innerType?: unknown; schema?: unknown };
    shape?: Record<string, unknown>;
  };
  while (s.shape === undefined) s = (s._def.innerType ?? s._def.schema) as typeof s;
  return s as { shape: Record<string, unknown> };
};

describe('docs/matrix.md', () => {
  it('lists exactly the top-level fields of the schema', () => {
    expect(tableFields('field')).toEqual(keys(matrixSchema));
  });

  it('lists exactly the model fields', () => {
    expect(tableFields('`model` field')).toEqual(keys(inner('model')));
  });
});
