// Entry point of the target-server bundle (dist/target-server.mjs): `node target-server.mjs --port 0 …`.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { reportFatal } from '../runtime/index.ts';
import { TargetOptionsError } from './errors.ts';
import { targetServerCommand } from './target-command.ts';

try {
  await yargs(hideBin(process.argv))
    .scriptName('target-server')
    .command({ ...targetServerCommand, command: '$0' })
    .strict()
    .help()
    .fail(false)
    .parseAsync();
} catch (err) {
  // Flag errors from yargs (unknown flag, bad choice) are bad options too: one line and exit 2.
  process.exit(
    reportFatal(
      'target-server',
      new TargetOptionsError(`${(err as Error).message ?? String(err)} (see --help)`),
    ),
  );
}
