// Entry point of the target-server bundle (dist/target-server.mjs): `node target-server.mjs --port 0 …`.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { targetServerCommand } from './command.ts';

try {
  await yargs(hideBin(process.argv))
    .scriptName('target-server')
    .command({ ...targetServerCommand, command: '$0' })
    .strict()
    .help()
    .fail(false)
    .parseAsync();
} catch (err) {
  // Flag errors from yargs (unknown flag, bad choice): one line and exit 2, like our own option errors.
  const e = err as { message?: string };
  process.stderr.write(`target-server: ${e.message ?? String(err)} (see --help)\n`);
  process.exit(2);
}
