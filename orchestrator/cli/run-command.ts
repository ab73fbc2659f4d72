// `hedgebench run`: argv → createRun → execute, with Ctrl-C handling and the exit code. Thin on purpose.
import type { CommandModule } from 'yargs';
import { gateError, parseFailOn } from '../../analysis/index.ts';
import { EXIT_CODES } from '../../library/index.ts';
import {
  parseSeedList,
  parseTimeScale,
  SEED_LIST_FLAG_TEXT,
  TIME_SCALE_FLAG_TEXT,
} from '../../model/index.ts';
import { parsedOption, reportFatal, wholeNumberOption } from '../../runtime/index.ts';
import { RunOptionError } from '../errors.ts';
import { createRun } from '../run/create-run.ts';
import { printPlan } from './plan-command.ts';

interface RunArgs {
  matrix?: string;
  hosts?: string;
  calls?: string;
  seed?: string;
  out?: string;
  resume?: string;
  redis?: string;
  'durable-redis'?: boolean;
  'retry-failed'?: boolean;
  'retry-invalid'?: boolean;
  'fail-on'?: string;
  json?: boolean;
  plan?: boolean;
  lease?: string;
  lanes?: string;
  'time-scale'?: string;
  'allow-any-target'?: boolean;
}

/** A whole-number option (the error echoes what was typed, e.g. `abc`). */
const option = (name: string, raw: string | undefined, min: number, what: string) =>
  wholeNumberOption(name, raw, min, what, (m) => new RunOptionError(m));

/** An option a model rule parses (`--seed`, `--time-scale`). */
const parsed = <T>(name: string, raw: string | undefined, parse: (t: string) => T | null, accepts: string) =>
  parsedOption(name, raw, parse, accepts, (m) => new RunOptionError(m));

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
        type: 'string',
        describe: "calls per point, warm-up included (overrides the matrix's)",
      })
      .option('seed', {
        type: 'string',
        describe: "run these seeds instead of the matrix's: one (3), a range (1-12) or a list (1,4,7-9)",
      })
      .option('time-scale', {
        type: 'string',
        describe:
          "run every point k times slower (every duration × k, every rate ÷ k; results in model ms), or auto: the smallest k at which this machine's measured harness delays fall under the fidelity thresholds (overrides the matrix's timeScale)",
      })
      .option('out', {
        type: 'string',
        describe: 'a new run folder (default: results/<yyyymmdd-hhmmss>-<matrix name>)',
      })
      .option('resume', {
        type: 'string',
        describe: 'continue the run in this folder: done points are kept, the others are measured',
      })
      .option('redis', {
        type: 'string',
        describe: 'use this Redis (redis:// or rediss:// URL) instead of starting one',
      })
      .option('retry-failed', {
        type: 'boolean',
        describe: 'with --resume: measure the points that failed again too, not only the pending ones',
      })
      .option('retry-invalid', {
        type: 'boolean',
        describe:
          'with --resume: measure again the done points that failed their self-check (invalid in points.csv)',
      })
      .option('durable-redis', {
        type: 'boolean',
        describe: 'start redis-server with an append-only file, so a Redis restart mid-point loses nothing',
      })
      .option('fail-on', {
        type: 'string',
        describe:
          "exit 3 when every point was measured but a verdict in this list occurred (comma-separated: diverges, invalid, collapse-mismatch, missing; default: the matrix's failOn, else none)",
      })
      .option('json', {
        type: 'boolean',
        describe: 'print a machine-readable summary (JSON) on stdout; the text summary goes to stderr',
      })
      .option('plan', {
        type: 'boolean',
        describe:
          'list the points, the estimated wall time and disk, and whether the calls bound p99.9; start nothing',
      })
      .option('lanes', {
        type: 'string',
        describe:
          'measure this many points at a time, each on its own target and load generator on this machine, or auto: as many as keep the lanes under half the cores at the run\'s time scale and replicas (with --hosts: the hosts file\'s "lanes", fewer with auto when their hosts share one machine; default: auto when every point is dilated, else 1)',
      })
      .option('lease', {
        type: 'string',
        describe:
          'agents (target, load generator, redis-server) stop by themselves this many seconds after the orchestrator stopped renewing their lease (default 15)',
      })
      .option('allow-any-target', {
        type: 'boolean',
        describe:
          'with a matrix naming target.url: allow a host outside loopback and the lab network 198.18.0.0/15 (a service you own)',
      })
      .example(
        '$0 run',
        'the quick preset, everything on this machine, dilated ×10 on 3 lanes (about 4 minutes)',
      )
      .example('$0 run --plan --matrix experiments/reference.json', 'what the reference study would take')
      .example('$0 run --matrix experiments/reference.json --calls 20000', 'the reference study, scaled down')
      .example(
        '$0 run --fail-on diverges,collapse-mismatch --json',
        'a CI gate: exit 3 when sim and real differ',
      )
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
  const calls = option('calls', a.calls, 10, 'calls per point, warm-up included');
  const seeds = parsed('seed', a.seed, parseSeedList, SEED_LIST_FLAG_TEXT);
  const failOn = parseFailOn(a['fail-on']);
  const lease = option('lease', a.lease, 0, "the agents' lease in whole seconds, 3–3600");
  const lanes =
    a.lanes === 'auto' ? 'auto' : option('lanes', a.lanes, 1, 'lanes, points measured in parallel');
  const timeScale = parsed('time-scale', a['time-scale'], parseTimeScale, TIME_SCALE_FLAG_TEXT);
  if (a.plan) {
    if (a.resume !== undefined) {
      throw new RunOptionError('--plan plans a new run from a matrix; drop --resume (or drop --plan)');
    }
    await printPlan({
      matrixFile: a.matrix,
      calls,
      seeds,
      timeScale,
      lanes,
      hostsFile: a.hosts,
      json: a.json === true,
    });
    return;
  }
  const run = await createRun({
    matrixFile: a.matrix,
    hostsFile: a.hosts,
    lanes,
    calls,
    seeds,
    timeScale,
    out: a.out,
    resume: a.resume,
    redisUrl: a.redis,
    durableRedis: a['durable-redis'],
    retryFailed: a['retry-failed'],
    retryInvalid: a['retry-invalid'],
    failOn,
    // With --json, stdout carries the JSON alone; the text summary goes with the progress to stderr.
    stdout: a.json ? process.stderr : process.stdout,
    leaseSeconds: lease,
    allowAnyTarget: a['allow-any-target'],
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
    process.exit(sig === 'SIGTERM' ? EXIT_CODES.sigterm : EXIT_CODES.sigint);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const outcome = await run.execute();
    if (a.json) {
      const json = {
        ...(outcome.comparison ?? { runDir: outcome.runDir }),
        exitCode: outcome.exitCode,
        points: { done: outcome.done, failed: outcome.failed, pending: outcome.pending },
        interrupted: outcome.interrupted,
        resumeCommand: outcome.resumeCommand,
      };
      process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    }
    const gated = outcome.exitCode === EXIT_CODES.thresholds && outcome.gate ? gateError(outcome.gate) : null;
    if (gated) reportFatal('hedgebench', gated);
    process.exitCode = outcome.exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
