// shellQuote/shellJoin: every argument reaches the program exactly as given through a real POSIX sh, and nothing runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { shellJoin, shellQuote } from '../../../orchestrator/hosts/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'hb-quote-'));
const marker = join(dir, 'pwned');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs printf through a real shell with the quoted args; returns the words the program received. */
function roundTrip(shell: string, args: string[]): string[] {
  const out = execFileSync(shell, ['-c', `printf '%s\\0' ${shellJoin(args)}`], {
    encoding: 'utf8',
    cwd: dir,
  });
  return out.split('\0').slice(0, -1);
}

const SHELLS = ['/bin/sh', '/bin/bash', '/bin/dash'].filter((s) => existsSync(s));

describe('shellQuote', () => {
  it('leaves plain words alone and quotes everything else', () => {
    expect(shellQuote('node')).toBe('node');
    expect(shellQuote('/a/b-c_d.mjs')).toBe('/a/b-c_d.mjs');
    expect(shellQuote('--port=7400')).toBe('--port=7400');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'"'"'s'`);
    expect(shellQuote('$(x)')).toBe("'$(x)'");
    expect(shellQuote('~')).toBe("'~'");
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
  });

  it.each(SHELLS)('defeats injection attempts in %s', (shell) => {
    const hostile = [
      `$(touch ${marker})`,
      `\`touch ${marker}\``,
      `; touch ${marker}`,
      `&& touch ${marker}`,
      `| touch ${marker}`,
      `' ; touch ${marker} ; '`,
      `"; touch ${marker}; "`,
      `\ntouch ${marker}\n`,
      `\${IFS}touch\${IFS}${marker}`,
      '*',
      '?',
      '[a]',
      '~root',
      '!!',
      '#comment',
      '',
      ' ',
      '\\',
      "''",
    ];
    expect(roundTrip(shell, hostile)).toEqual(hostile);
    expect(existsSync(marker)).toBe(false);
  });

  it('round-trips arbitrary strings through /bin/sh exactly (property)', () => {
    const arg = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0'));
    fc.assert(
      fc.property(fc.array(arg, { minLength: 1, maxLength: 6 }), (args) => {
        expect(roundTrip('/bin/sh', args)).toEqual(args);
      }),
      { numRuns: 150 },
    );
    expect(existsSync(marker)).toBe(false);
  });
});
