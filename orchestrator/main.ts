// Entry point of the hedgebench command (bundled to dist/hedgebench.mjs): argv in, exit code out.
import { hideBin } from 'yargs/helpers';
import { reportFatal } from '../runtime/index.ts';
import { createCli } from './cli/cli.ts';

try {
  await createCli(hideBin(process.argv)).parseAsync();
} catch (err) {
  reportFatal('hedgebench', err);
}
