// Entry point of the standalone load generator (bundled to dist/loadgen.mjs): the loadgen command as the
// only command, so `node loadgen.mjs --spec JSON` (or `--target … --config … --load … --calls … --seed …`)
// runs one point.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { reportFatal } from '../runtime/index.ts';
import { LoadgenConfigError } from './errors.ts';
import { loadgenCommand } from './loadgen-command.ts';

try {
  await yargs(hideBin(process.argv))
    .scriptName('loadgen')
    .command({ ...loadgenCommand, command: '$0' })
    .strict()
    .help()
    .version(false)
    // Errors from the handler are reported once, below, as `code: message` (not a usage dump); a flag
    // yargs itself rejects (missing, unknown) becomes a config error naming it.
    .fail((msg, err) => {
      throw err ?? new LoadgenConfigError(`${msg}; see --help`);
    })
    .parseAsync();
} catch (err) {
  reportFatal('loadgen', err);
}
