// Each part is used through its index.ts, its chosen public list: a file of one part never imports another
// part's internals, and the layering holds (library/ imports no other part; model/ only library/;
// contract/ only library/ and model/; the simulator never analysis/). Fails naming file:line.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const PARTS = [
  'library',
  'model',
  'contract',
  'simulator',
  'target-server',
  'loadgen',
  'orchestrator',
  'analysis',
  'runtime',
  'probe',
];

/** Parts a part may import (through their index.ts); absent = any part. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  library: [],
  model: ['library'],
  contract: ['library', 'model'],
  runtime: ['library'],
  simulator: ['library', 'model', 'contract', 'runtime'],
};

const ROOT = join(import.meta.dirname, '..');

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : /\.(ts|mjs|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

interface Import {
  file: string;
  line: number;
  spec: string;
  /** Repository-relative path the specifier points at. */
  target: string;
}

// `from '…'` ends every static import and re-export; `import('…')` and `import '…'` cover the rest.
const SPEC = /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(SPEC)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith('.')) continue;
    const line = text.slice(0, m.index).split('\n').length;
    const lineText = text.split('\n')[line - 1].trimStart();
    if (lineText.startsWith('//') || lineText.startsWith('*')) continue;
    out.push({ file, line, spec, target: normalize(relative(ROOT, join(ROOT, dirname(file), spec))) });
  }
  return out;
}

const partOf = (path: string) => path.split('/')[0];

function violations(files: string[], strict: boolean): string[] {
  return files.flatMap((f) =>
    importsOf(f).flatMap((imp) => {
      const from = partOf(f);
      const to = partOf(imp.target);
      if (!PARTS.includes(to) || to === from) return [];
      const where = `${imp.file}:${imp.line}: ${imp.spec}`;
      // Outside code may also use a sub-part's own public list (orchestrator/hosts/index.ts).
      const isIndex = strict ? imp.target === `${to}/index.ts` : imp.target.endsWith('/index.ts');
      if (!isIndex) return [`${where} reaches into ${to}/; import ${to}/index.ts`];
      const allowed = strict ? MAY_IMPORT[from] : undefined;
      if (allowed && !allowed.includes(to)) return [`${where}: ${from}/ must not import ${to}/`];
      return [];
    }),
  );
}

describe('imports between parts', () => {
  for (const part of PARTS) {
    it(`${part}/ imports other parts only through their index.ts, and only parts below it`, () => {
      const files = tsFiles(part);
      expect(files.length).toBeGreaterThan(0);
      expect(violations(files, true)).toEqual([]);
    });
  }

  it('bench/ and scripts/ use the parts through their index.ts', () => {
    expect(violations([...tsFiles('bench'), ...tsFiles('scripts')], false)).toEqual([]);
  });
});
