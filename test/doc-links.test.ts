// Repository-wide: every document a source file or package.json script points at exists in this repository
// (a comment citing a design page the repository lacks, or `npm run bench` naming a missing file, sends a reader nowhere).
// So does every source file a part's comment names.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARTS } from './parts.ts';

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

  it('every *.ts a comment of a part names exists (from the root, beside the file, or in the part)', () => {
    const missing: string[] = [];
    for (const part of PARTS) {
      const files = sources(join(ROOT, part)).filter((f) => f.endsWith('.ts'));
      const names = new Set(files.map((f) => basename(f)));
      for (const file of files) {
        const lines = readFileSync(file, 'utf8').split('\n');
        for (const [i, line] of lines.entries()) {
          const whole = /^\s*(?:\/\/|\/\*|\*)(.*)$/.exec(line);
          const trailing = /\s\/\/\s(.*)$/.exec(line);
          const comment = whole?.[1] ?? trailing?.[1] ?? '';
          for (const m of comment.matchAll(/(?<![\w./*-])[\w.-]+(?:\/[\w.-]+)*\.ts\b/g)) {
            const cited = m[0];
            if (existsSync(join(ROOT, cited)) || existsSync(join(file, '..', cited))) continue;
            if (!cited.includes('/') && names.has(cited)) continue;
            missing.push(`${relative(ROOT, file)}:${i + 1} names ${cited}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
