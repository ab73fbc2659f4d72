// Entry point of the hedgebench command (bundled to dist/hedgebench.mjs): argv in, exit code out.
import { hideBin } from 'yargs/helpers';
import { createCli } from './cli.ts';

try {
  await createCli(hideBin(process.argv)).parseAsync();
} catch (err) {
  const e = err as { code?: string; message?: string };
  console.error(`hedgebench: ${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`);
  process.exitCode = process.exitCode || 1;
}
