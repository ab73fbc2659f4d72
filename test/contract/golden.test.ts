// The results format must not drift by accident: the outputs regenerated from the current code equal, byte
// for byte, the golden files made before the contract/ refactor. After an intended format change, rewrite
// them with `HB_UPDATE_GOLDEN=1 npx vitest run test/contract/golden.test.ts` and say why in the commit.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenOutputs } from './golden-outputs.ts';

const GOLDEN = join(import.meta.dirname, 'golden');

describe('results format golden files', () => {
  it('regenerated outputs equal the golden files byte for byte', async () => {
    const outputs = await goldenOutputs();
    if (process.env.HB_UPDATE_GOLDEN) {
      for (const [name, text] of Object.entries(outputs)) writeFileSync(join(GOLDEN, name), text);
    }
    expect(readdirSync(GOLDEN).sort()).toEqual(Object.keys(outputs).sort());
    for (const [name, text] of Object.entries(outputs)) {
      const path = join(GOLDEN, name);
      expect(existsSync(path), `${path} exists`).toBe(true);
      expect(text, name).toBe(readFileSync(path, 'utf8'));
    }
  });
});
