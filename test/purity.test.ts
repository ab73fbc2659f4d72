// library/ and model/ run in the simulator on a ManualClock: they must not read ambient time or
// randomness, nor import Node-only modules. The linter holds most of this line; this test holds the rest.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FORBIDDEN = [
  /Date\.now\(/,
  /Math\.random\(/,
  /performance\.now\(/,
  /\bsetTimeout\(/,
  /\bsetInterval\(/,
  /from ['"]node:/,
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('purity of library/ and model/', () => {
  for (const dir of ['library', 'model']) {
    it(`${dir}/ reads no ambient time or randomness and imports no node:*`, () => {
      const files = tsFiles(dir);
      expect(files.length).toBeGreaterThan(0);
      const hits = files.flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ f, i: i + 1, line }))
          .filter(({ line }) => !line.trimStart().startsWith('//') && FORBIDDEN.some((re) => re.test(line))),
      );
      expect(hits.map((h) => `${h.f}:${h.i}: ${h.line.trim()}`)).toEqual([]);
    });
  }
});
