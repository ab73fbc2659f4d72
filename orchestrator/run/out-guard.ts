// `hedgebench run --out DIR` starts a new run: DIR must not hold a run (finished or not) or a simulation,
// so no file of another run is ever overwritten. Says what is there and what to do instead.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifest, RUN_FILES } from '../../contract/index.ts';
import { RunOptionError } from '../errors.ts';
import type { RunFolder } from '../plan/run-folder.ts';

/** Throws when `folder` already holds a run or a `hedgebench simulate` output. */
export function checkNewRunFolder(folder: RunFolder): void {
  if (existsSync(folder.dir) && !statSync(folder.dir).isDirectory()) {
    throw new RunOptionError(
      `--out ${folder.dir} is a file, not a folder; pass --out with a new folder (e.g. results/my-run)`,
    );
  }
  if (folder.hasManifest()) {
    const states = manifestStates(folder.manifestPath);
    if (states !== null && states.length > 0 && !states.includes('pending')) {
      const failed = states.filter((s) => s === 'failed').length;
      throw new RunOptionError(
        `${folder.dir} holds a finished run (${states.length} points: ${states.length - failed} done, ${failed} failed); nothing is left to measure there. Choose another --out for a new run, or re-judge this one with \`hedgebench compare ${folder.dir}\``,
      );
    }
    throw new RunOptionError(
      `${folder.dir} already holds a run; continue it with --resume ${folder.dir}, or choose another --out`,
    );
  }
  for (const f of [RUN_FILES.points, RUN_FILES.simEvidence]) {
    if (existsSync(join(folder.dir, f))) {
      throw new RunOptionError(
        `${folder.dir} holds another run's files (${f}, written by \`hedgebench simulate\`); a run would overwrite them. Choose another --out`,
      );
    }
  }
}

/** The points' states of a manifest, or null when it cannot be read (then it is treated as unfinished). */
function manifestStates(path: string): string[] | null {
  try {
    const r = parseManifest(JSON.parse(readFileSync(path, 'utf8')));
    return r.ok ? r.manifest.points.map((p) => p.state) : null;
  } catch {
    return null;
  }
}
