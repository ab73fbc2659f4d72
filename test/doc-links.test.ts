// Repository-wide: every document a source file or package.json script points at exists in this repository
// (a comment citing a design page the repository lacks, or `npm run bench` naming a missing file, sends a reader nowhere).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', 'results', '.git', '.lab']);
// Names of files a run writes (not documents of this repository).
const OUTPUTS = new Set(['report.md', 'probe.md', 'recommendation.md']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : sources(join(dir, e.name));
    return /\.(ts|mjs|js|sh)$/.test(e.name) ? [join(dir, e.name)] : [];
  });
}

describe('documents and files the repository points at', () => {
  it('every *.md a source file cites exists (from the root, or beside the file)', () => {
    const missing: string[] = [];
    for (const file of sources(ROOT)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b/g)) {
        const cited = m[0].replace(/^\.\//, '');
        if (OUTPUTS.has(cited)) continue;
        if (!existsSync(join(ROOT, cited)) && !existsSync(join(file, '..', cited))) {
          missing.push(`${relative(ROOT, file)} cites ${cited}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('every package.json script that runs a file names one that exists (e.g. `bench`)', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >;
    const missing = Object.entries(scripts).flatMap(([name, cmd]) =>
      [...cmd.matchAll(/(?:^|\s)(?:node|tsx|bash)\s+(\S+\.(?:m?js|ts|sh))/g)]
        .map((m) => m[1])
        .filter((f) => !existsSync(join(ROOT, f)))
        .map((f) => `${name}: ${f}`),
    );
    expect(Object.keys(scripts)).toContain('bench');
    expect(missing).toEqual([]);
  });
});
