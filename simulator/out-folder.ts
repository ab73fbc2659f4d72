// Where `hedgebench simulate` may write: checked before any point is simulated, so a wrong --out costs
// nothing and never overwrites a measured run's points.csv.

import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_FILES } from '../contract/index.ts';
import { SimOptionError } from './errors.ts';

/** Refuses an output path that is a file, holds a run or another simulation, or cannot be written; creates it. */
export function prepareSimOut(dir: string): void {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) {
      throw new SimOptionError(
        `--out ${dir} is a file, not a folder; pass --out with a new folder (e.g. results/my-sim)`,
      );
    }
    if (existsSync(join(dir, RUN_FILES.manifest))) {
      throw new SimOptionError(
        `--out ${dir} holds a run of \`hedgebench run\`; simulating into it would replace its points.csv and lose its real rows. Pass --out with a new folder (its own simulated rows are in its sim.csv)`,
      );
    }
    const taken = [RUN_FILES.points, RUN_FILES.simEvidence].filter((f) => existsSync(join(dir, f)));
    if (taken.length > 0) {
      throw new SimOptionError(
        `--out ${dir} already holds a simulation (${taken.join(', ')}); pass --out with a new folder, or delete that one first`,
      );
    }
  }
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new SimOptionError(
      `--out ${dir} cannot be created or written (${code}); pass --out with a folder you can write`,
      { cause: err },
    );
  }
}
