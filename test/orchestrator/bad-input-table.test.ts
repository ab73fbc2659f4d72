// docs/running.md's "Bad input" tables are what the CLI does: every row is run as written against the built
// CLI (a child process) and must exit with the documented status and print the documented text on stderr.
// The exit-status table must list exactly EXIT_CODES, and the top-level --help must show them.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../library/index.ts';
import { VERDICT_POINTS, writeFixtureRun } from '../analysis/fixture.ts';
import { ROOT, requireBuild, rmTemp, runCli, tempDir, writeTinyMatrix } from './fixture.ts';

const DOC = readFileSync(join(ROOT, 'docs/running.md'), 'utf8');

/** The text of a `## title` section, up to the next `## ` heading. */
function section(title: string): string {
  const start = DOC.indexOf(`\n## ${title}\n`);
  expect(start, `docs/running.md has a "## ${title}" section`).toBeGreaterThan(0);
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, end < 0 ? undefined : end);
}

/** A table cell without its code-span backticks. */
const code = (cell: string) =>
  cell
    .trim()
    .replace(/^`+\s?/, '')
    .replace(/\s?`+$/, '');

/** Splits a command line on spaces, keeping "double-quoted words" together. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

interface Row {
  command: string;
  exit: number;
  stderr: string;
}

const ROWS: Row[] = section('Bad input')
  .split('\n')
  .filter((l) => l.startsWith('| `hedgebench'))
  .map((l) => {
    const cells = l.slice(1, -1).split(' | ');
    expect(cells, l).toHaveLength(3);
    return { command: code(cells[0]), exit: Number(cells[1]), stderr: code(cells[2]) };
  });

let tmp: string;
let run: string;
let unfinished: string;
const places: Record<string, string> = {};

beforeAll(() => {
  requireBuild();
  tmp = tempDir('hb-bad-input-');
  run = writeFixtureRun(VERDICT_POINTS, 'finished');
  unfinished = writeFixtureRun(
    [
      { config: 'no hedge', load: 0.5, calls: 1000 },
      { config: 'no hedge', load: 0.95, calls: 1000, state: 'pending', noRaw: true },
    ],
    'unfinished',
  );
  const sim = join(tmp, 'sim');
  mkdirSync(sim);
  writeFileSync(join(sim, 'points.csv'), readFileSync(join(run, 'points.csv')));
  writeFileSync(join(sim, 'sim-evidence.json'), '{}\n');
  const file = join(tmp, 'a-file.txt');
  writeFileSync(file, 'not a folder');
  const bad = join(tmp, 'bad-matrix.json');
  writeFileSync(
    bad,
    JSON.stringify({
      name: 'bad',
      configs: ['no hedge'],
      loads: [0.5, 'high'],
      cancellation: ['ignore'],
      seeds: [1],
      calls: 100,
    }),
  );
  // A user's own service (a matrix with target.url and its model), outside loopback and on loopback.
  const foreign = (name: string, url: string) => {
    const path = join(tmp, `${name}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        name,
        target: { url },
        model: { workers: 4, medianMs: 10 },
        configs: ['no hedge'],
        loads: [0.5],
        cancellation: ['ignore'],
        seeds: [1],
        calls: 100,
      }),
    );
    return path;
  };
  // Longer names first: <tmp> must not eat into <tiny>'s replacement, and the other way round.
  Object.assign(places, {
    '<foreign-remote>': foreign('remote', 'http://10.1.2.3/x'),
    '<foreign>': foreign('local', 'http://127.0.0.1:1/x'),
    '<unfinished>': unfinished,
    '<bad-matrix>': bad,
    '<tiny>': writeTinyMatrix(tmp),
    '<file>': file,
    '<run>': run,
    '<sim>': sim,
    '<tmp>': tmp,
  });
});

afterAll(() => {
  rmTemp(tmp);
  rmTemp(run);
  rmTemp(unfinished);
});

const fill = (text: string) => Object.entries(places).reduce((t, [k, v]) => t.replaceAll(k, v), text);

describe('docs/running.md: bad input', () => {
  it('has a table row for every command that reads input', () => {
    for (const c of ['run', 'simulate', 'compare', 'report', 'target-server', 'loadgen']) {
      expect(
        ROWS.some((r) => r.command.startsWith(`hedgebench ${c}`)),
        c,
      ).toBe(true);
    }
    for (const r of ROWS) expect(Object.values(EXIT_CODES), r.command).toContain(r.exit);
  });

  // Rows are independent child processes: run a few at once.
  it.concurrent.each(ROWS.map((r) => [r.command, r] as const))('%s', async (_, row) => {
    const args = words(fill(row.command)).slice(1);
    const r = await runCli(args, { timeout: 60_000 });
    const stderr = String(r.stderr);
    expect(r.exitCode, stderr).toBe(row.exit);
    expect(stderr).toContain(fill(row.stderr));
    expect(stderr).not.toMatch(/\n\s+at /);
    // Refused before any work: no run folder or simulation appeared where the row named one.
    expect(existsSync(join(tmp, 'never'))).toBe(false);
    expect(existsSync(join(run, 'sim-evidence.json'))).toBe(false);
  });
});

describe('docs/running.md: exit status', () => {
  it('lists exactly the exit codes the code uses', () => {
    const documented = section('Exit status')
      .split('\n')
      .map((l) => l.match(/^\| `(\d+)` \|/))
      .filter((m) => m !== null)
      .map((m) => Number(m[1]));
    expect(documented.sort((a, b) => a - b)).toEqual(Object.values(EXIT_CODES).sort((a, b) => a - b));
  });

  it('hedgebench --help shows examples, every exit code and the docs', async () => {
    const r = await runCli(['--help']);
    expect(r.exitCode).toBe(0);
    const out = String(r.stdout);
    expect(out).toContain('Examples:');
    expect(out).toContain('hedgebench run --plan');
    for (const c of Object.values(EXIT_CODES)) expect(out).toMatch(new RegExp(`^  (\\d+\\s+)*${c}\\s`, 'm'));
    const doc = out.match(/Docs: (\S+running\.md)/)?.[1];
    expect(doc && existsSync(doc)).toBe(true);
    expect(out).toContain('HEDGEBENCH_DEBUG');
  });
});
