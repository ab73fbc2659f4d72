// Entry point of the hedgebench command (bundled to dist/hedgebench.mjs): argv in, exit code out.
import { hideBin } from 'yargs/helpers';
import { createCli, describeError } from './cli.ts';

try {
  await createCli(hideBin(process.argv)).parseAsync();
} catch (err) {
  console.error(`hedgebench: ${describeError(err)}`);
  if (process.env.HEDGEBENCH_DEBUG) console.error(err);
  process.exitCode = process.exitCode || ((err as { exitCode?: number }).exitCode ?? 1);
}
