// Where a point's raw files live in a run folder: raw/<slug>.calls.csv, .attempts.csv, .status.json.
// The drain writes them and the analysis reads them; both take the names from here.

import { join } from 'node:path';

/** The name of the folder inside a run folder that holds raw files. */
export const RAW_DIR = 'raw';

/** The paths of a point's raw files under `dir/<base>` (base = the slug, or slug.stamp for kept-aside data). */
export function rawFilesAt(dir: string, base: string): { calls: string; attempts: string; status: string } {
  const b = join(dir, base);
  return { calls: `${b}.calls.csv`, attempts: `${b}.attempts.csv`, status: `${b}.status.json` };
}

/** The paths of a point's raw files in a run folder. */
export function rawPaths(runDir: string, slug: string): { calls: string; attempts: string; status: string } {
  return rawFilesAt(join(runDir, RAW_DIR), slug);
}
