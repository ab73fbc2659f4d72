// Each part is used through its index.ts, its chosen public list: a file of one part never imports another
// part's internals, and the layering holds (library/ imports no other part; model/ only library/;
// contract/ only library/ and model/; the simulator never analysis/). Inside a part, its sub-folders are
// layers too (LAYERS): imports run one way, down. Fails naming file:line.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARTS } from './parts.ts';

/** Parts a part may import (through their index.ts); absent = any part. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  library: [],
  model: ['library'],
  contract: ['library', 'model'],
  runtime: ['library'],
  simulator: ['library', 'model', 'contract', 'runtime'],
};

/**
 * The sub-folders of a part, bottom up (docs/architecture.md says what each holds): a file imports its own
 * sub-folder and those below it, never one above. A file directly in the part's folder is its base, which
 * every sub-folder may import and which imports none of them (errors.ts, paths.ts), or one of TOP.
 */
const LAYERS: Record<string, readonly string[]> = {
  orchestrator: ['hosts', 'plan', 'agents', 'point', 'lanes', 'run', 'cli'],
  analysis: ['read', 'judge', 'claims', 'charts', 'report', 'write'],
};

/** A part's own files above its sub-folders, imported by none of them: its public list and its commands. */
const TOP = ['index.ts', 'main.ts', 'analysis-commands.ts'];

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

/** Where a file sits in its part's LAYERS: its rank (-1 the base, past the last the top) and its name. */
function layerOf(path: string): { rank: number; name: string } {
  const [part, sub, ...rest] = path.split('/');
  const layers = LAYERS[part] ?? [];
  if (rest.length > 0) return { rank: layers.indexOf(sub), name: `${part}/${sub}/` };
  return { rank: TOP.includes(sub) ? layers.length : -1, name: path };
}

/** Why a file importing `target` goes up its part's layers; null when it does not. */
function upward(file: string, target: string): string | null {
  const part = partOf(file);
  if (partOf(target) !== part || LAYERS[part] === undefined) return null;
  const from = layerOf(file);
  const to = layerOf(target);
  if (to.rank <= from.rank) return null;
  return `${from.name} must not import ${to.name}, which sits above it (${LAYERS[part].join(' → ')})`;
}

function layerViolations(files: string[]): string[] {
  return files.flatMap((f) =>
    importsOf(f).flatMap((imp) => {
      const why = upward(f, imp.target);
      return why === null ? [] : [`${imp.file}:${imp.line}: ${imp.spec}: ${why}`];
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

describe('imports between the sub-folders of a part', () => {
  it('every sub-folder of a part has its place in LAYERS', () => {
    for (const part of PARTS) {
      const subs = readdirSync(join(ROOT, part), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
      expect(subs.sort(), `${part}/`).toEqual([...(LAYERS[part] ?? [])].sort());
    }
  });

  for (const [part, layers] of Object.entries(LAYERS)) {
    it(`${part}/ imports only down its layers: ${layers.join(' → ')}`, () => {
      expect(layerViolations(tsFiles(part))).toEqual([]);
    });
  }

  it('an import up the layers fails, naming both folders', () => {
    expect(upward('analysis/judge/gate.ts', 'analysis/report/run-report.ts')).toBe(
      'analysis/judge/ must not import analysis/report/, which sits above it (read → judge → claims → charts → report → write)',
    );
    expect(upward('analysis/report/run-report.ts', 'analysis/judge/gate.ts')).toBeNull();
    expect(upward('analysis/judge/gate.ts', 'analysis/judge/compare.ts')).toBeNull();
    expect(upward('orchestrator/errors.ts', 'orchestrator/hosts/index.ts')).toMatch(
      /^orchestrator\/errors\.ts must not/,
    );
    expect(upward('orchestrator/hosts/host.ts', 'orchestrator/errors.ts')).toBeNull();
    expect(upward('orchestrator/cli/cli.ts', 'orchestrator/index.ts')).toMatch(
      /must not import orchestrator\/index\.ts/,
    );
    expect(upward('orchestrator/index.ts', 'orchestrator/cli/cli.ts')).toBeNull();
  });
});
