// Every export of a part is used by another file (a part, test/, bench/ or scripts/): what only its own file
// uses is not exported, and what nobody uses is not there. An index.ts re-export counts as a use of the
// original only when something imports that name from the index, so each index.ts lists only what is used
// through it. The parts' main.ts files are entry points, not exports. Fails naming file:line.
// Regex over source text as biome formats it: `export` and `import` statements start their line, and
// comment lines start with `//`, `/*` or `*`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARTS } from './parts.ts';

/** Folders whose imports count as uses (bin/ runs the bundle, not the sources). */
const USERS = [...PARTS, 'test', 'bench', 'scripts'];

/** Exports kept though no other file imports them ("file:name": why). library/index.ts: libraryPublic. */
const ALLOWED: Record<string, string> = {};

const ROOT = join(import.meta.dirname, '..');
const LIBRARY_DOC = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');

/**
 * library/ is also a library for code outside this repository (docs/library.md, "Example (the Promise
 * facade, for real use)"), so its index.ts keeps what that page documents, and the types of its public
 * signatures: options, snapshots, listeners, and the argument of `execute`'s function (AttemptContext).
 */
function libraryPublic(name: string): boolean {
  if (new RegExp(`\\b${name}\\b`).test(LIBRARY_DOC)) return true;
  return /(Options|Snapshot|Listener)$/.test(name) || name === 'AttemptContext';
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : /\.(ts|mjs|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** A file's text with its comment lines blanked and trailing ` // …` comments cut (lines kept). */
function code(file: string): string {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const isComment = (line: string) => /^\s*(\/\/|\/\*|\*)/.test(line);
  return lines.map((line) => (isComment(line) ? '' : line.replace(/\s\/\/\s.*$/, ''))).join('\n');
}

const resolveSpec = (from: string, spec: string) => normalize(join(dirname(from), spec));
const lineAt = (text: string, index: number | undefined) => text.slice(0, index).split('\n').length;

/** `a, type B, c as d` → [imported or original name, local or exported name] pairs. */
function specifiers(list: string): [string, string][] {
  const out: [string, string][] = [];
  for (const item of list.split(',')) {
    const m = /^(?:type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(item.trim());
    if (m) out.push([m[1], m[2] ?? m[1]]);
  }
  return out;
}

interface Export {
  file: string;
  line: number;
  name: string;
  /** For a re-export: the file and name it passes on. */
  from?: { file: string; name: string };
}

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([\w$]+)/gm;
const EXPORT_LIST = /^export\s+(?:type\s+)?\{([^}]*)\}\s*(?:from\s*['"]([^'"]+)['"])?/gm;
const IMPORT =
  /^import\s+(?:type\s+)?(?:[\w$]+\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+([\w$]+))?\s*from\s*['"]([^'"]+)['"]/gm;
// `const { a } = await import('./x.ts')`, and `import('./x.ts').Name` in a type.
const DYNAMIC_IMPORT = /\{([^{}]*)\}\s*=\s*await\s+import\(\s*['"]([^'"]+)['"]\s*\)/g;
const IMPORT_TYPE = /import\(\s*['"]([^'"]+)['"]\s*\)\.([\w$]+)/g;

function exportsOf(file: string, text: string): Export[] {
  // Names a file imports and exports again in an `export { … }` list without `from` are re-exports too.
  const imported = new Map<string, { file: string; name: string }>();
  for (const m of text.matchAll(IMPORT)) {
    if (!m[1] || !m[3].startsWith('.')) continue;
    for (const [name, local] of specifiers(m[1])) {
      imported.set(local, { file: resolveSpec(file, m[3]), name });
    }
  }
  const out: Export[] = [];
  for (const m of text.matchAll(DECLARATION)) {
    out.push({ file, line: lineAt(text, m.index), name: m[1] });
  }
  for (const m of text.matchAll(EXPORT_LIST)) {
    const line = lineAt(text, m.index);
    for (const [original, name] of specifiers(m[1])) {
      const from = m[2] ? { file: resolveSpec(file, m[2]), name: original } : imported.get(original);
      out.push({ file, line, name, from });
    }
  }
  return out;
}

/** "file:name" → the files that import that name from that file. */
function importers(files: Map<string, string>): Map<string, Set<string>> {
  const uses = new Map<string, Set<string>>();
  const use = (target: string, name: string, by: string) => {
    const key = `${target}:${name}`;
    uses.set(key, (uses.get(key) ?? new Set<string>()).add(by));
  };
  for (const [file, text] of files) {
    for (const m of text.matchAll(IMPORT)) {
      if (!m[3].startsWith('.')) continue;
      const target = resolveSpec(file, m[3]);
      for (const [name] of specifiers(m[1] ?? '')) use(target, name, file);
      if (!m[2]) continue;
      // `import * as lib from …`: every `lib.name` of the file.
      for (const n of text.matchAll(new RegExp(`\\b${m[2]}\\.([\\w$]+)`, 'g'))) use(target, n[1], file);
    }
    for (const m of text.matchAll(DYNAMIC_IMPORT)) {
      const target = resolveSpec(file, m[2]);
      for (const [name] of specifiers(m[1].replace(/:/g, ' as '))) use(target, name, file);
    }
    for (const m of text.matchAll(IMPORT_TYPE)) use(resolveSpec(file, m[1]), m[2], file);
  }
  return uses;
}

function sources(): Map<string, string> {
  return new Map(USERS.flatMap((dir) => tsFiles(dir)).map((f) => [f, code(f)] as const));
}

const isProduct = (file: string) => PARTS.includes(file.split('/')[0]) && !file.endsWith('/main.ts');

function unusedExports(): string[] {
  const files = sources();
  const exports = [...files].filter(([f]) => isProduct(f)).flatMap(([f, text]) => exportsOf(f, text));
  const uses = importers(files);
  const reExports = exports.filter((e) => e.from !== undefined);

  // Used: another file imports it, or imports it through a re-export (of a re-export …) of it.
  const used = (e: Export, seen: Set<Export>): boolean => {
    const key = `${e.file}:${e.name}`;
    if ([...(uses.get(key) ?? [])].some((by) => by !== e.file)) return true;
    if (key in ALLOWED || (e.file === 'library/index.ts' && libraryPublic(e.name))) return true;
    for (const r of reExports) {
      if (r.from?.file !== e.file || r.from.name !== e.name || r.file === e.file || seen.has(r)) continue;
      if (used(r, new Set([...seen, r]))) return true;
    }
    return false;
  };
  const unused = exports.filter((e) => !used(e, new Set([e])));
  return unused.map((e) => `${e.file}:${e.line}: ${e.name}`);
}

describe('exports', () => {
  it('every export of a part is imported by another file (and each index.ts lists only what is)', () => {
    expect(unusedExports()).toEqual([]);
  });

  it('every allow-list entry names an export of its file that no other file imports', () => {
    const files = sources();
    const uses = importers(files);
    const stale = Object.keys(ALLOWED).filter((key) => {
      const [file, name] = key.split(':');
      const exported = exportsOf(file, files.get(file) ?? '').some((e) => e.name === name);
      return !exported || [...(uses.get(key) ?? [])].some((by) => by !== file);
    });
    expect(stale).toEqual([]);
  });
});
