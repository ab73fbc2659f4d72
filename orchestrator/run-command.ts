// `hedgebench run`: argv → createRun → execute, with Ctrl-C handling and the exit code. Thin on purpose.
import type { CommandModule } from 'yargs';
import { reportFatal } from '../runtime/index.ts';
import { RunOptionError } from './errors.ts';
import { createRun } from './run.ts';

interface RunArgs {
  matrix?: string;
  hosts?: string;
  calls?: number;
  seed?: number;
  out?: string;
  resume?: string;
  redis?: string;
  'durable-redis'?: boolean;
  lease?: number;
}

function checkArgs(a: RunArgs): void {
  if (a.calls !== undefined && !(Number.isInteger(a.calls) && a.calls >= 10)) {
    throw new RunOptionError(
      `--calls must be a whole number ≥ 10 (calls per point, warm-up included), got ${a.calls}`,
    );
  }
  if (a.seed !== undefined && !(Number.isSafeInteger(a.seed) && a.seed >= 0)) {
    throw new RunOptionError(`--seed must be a whole number ≥ 0, got ${a.seed}`);
  }
}

/** yargs module of `hedgebench run`. */
export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run',
  describe:
    'Measure a matrix on real agents (local or over SSH), simulate the same points, write results/<run>/',
  builder: (y) =>
    y
      .option('matrix', {
        type: 'string',
        describe: 'matrix JSON (default: experiments/quick.json)',
      })
      .option('hosts', {
        type: 'string',
        describe:
          'hosts JSON naming the target, load-generator and Redis hosts (default: everything on this machine)',
      })
      .option('calls', {
        type: 'number',
        describe: "calls per point, warm-up included (overrides the matrix's)",
      })
      .option('seed', { type: 'number', describe: "run this one seed instead of the matrix's seeds" })
      .option('out', {
        type: 'string',
        describe: 'run folder (default: results/<yyyymmdd-hhmmss>-<matrix name>)',
      })
      .option('resume', {
        type: 'string',
        describe: 'continue the run in this folder: done points are kept, the others are measured',
      })
      .option('redis', {
        type: 'string',
        describe: 'use this Redis (redis:// or rediss:// URL) instead of starting one',
      })
      .option('durable-redis', {
        type: 'boolean',
        describe: 'start redis-server with an append-only file, so a Redis restart mid-point loses nothing',
      })
      .option('lease', {
        type: 'number',
        describe:
          'agents (target, load generator, redis-server) stop by themselves this many seconds after the orchestrator stopped renewing their lease (default 15)',
      })
      .example('$0 run', 'the quick preset, everything on this machine (about two minutes)')
      .example('$0 run --matrix experiments/reference.json --calls 20000', 'the reference study, scaled down')
      .example('$0 run --hosts hosts.json', 'target, load generator and Redis on separate hosts over SSH')
      .example('$0 run --resume results/20250101-120000-quick', 'continue an interrupted run'),
  handler: async (a) => {
    try {
      await runHandler(a);
    } catch (err) {
      // One line naming the problem: a stack trace helps nobody fix a matrix or a hosts file.
      reportFatal('hedgebench', err);
    }
  },
};

async function runHandler(a: RunArgs): Promise<void> {
  checkArgs(a);
  const run = await createRun({
    matrixFile: a.matrix,
    hostsFile: a.hosts,
    calls: a.calls,
    seed: a.seed,
    out: a.out,
    resume: a.resume,
    redisUrl: a.redis,
    durableRedis: a['durable-redis'],
    leaseSeconds: a.lease,
  });
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      run.interrupt(sig);
      return;
    }
    process.stderr.write(
      `\nhedgebench: ${sig} again: exiting now; agents may still run — \`hedgebench run --resume ${run.runDir}\` stops them\n`,
    );
    process.exit(sig === 'SIGTERM' ? 143 : 130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const outcome = await run.execute();
    process.exitCode = outcome.exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
