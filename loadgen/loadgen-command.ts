// `hedgebench loadgen`: the yargs command that runs one point (loadgen/main.ts runs the same command alone).

import type { CommandModule } from 'yargs';
import { formatMs, parsePointSpec } from '../contract/index.ts';
import { BALANCERS, HEDGE_TARGETS } from '../library/index.ts';
import { LoadgenUsageError } from './errors.ts';
import { createLoadGenerator } from './load-generator.ts';
import { pointFlagsGiven, type SpecFlag, specFromFlags } from './spec-flags.ts';
import type { LoadProgress } from './status-writer.ts';

/**
 * Flags of `hedgebench loadgen`: the point as one `--spec` (what the orchestrator sends), or spelled flag by
 * flag (loadgen/spec-flags.ts maps each onto its PointSpec field); then this process's own wiring.
 */
type LoadgenArgs = Partial<Record<SpecFlag, unknown>> & {
  spec?: string;
  'replica-target'?: string[];
  config?: string;
  model?: string;
  redis?: string;
  run?: string;
  point?: string;
  quiet: boolean;
  timer?: 'poll' | 'thread';
  'timer-lead-ms'?: number;
};

/** The loadgen command module for orchestrator/cli/cli.ts. */
export const loadgenCommand: CommandModule<object, LoadgenArgs> = {
  command: 'loadgen',
  describe:
    'Run one open-loop Poisson point against a target through the hedge pipeline (prints a JSON summary line)',
  builder: (y) =>
    y
      .option('spec', {
        type: 'string',
        describe:
          'The whole point as one PointSpec JSON object (contract/point-spec.ts; what the orchestrator sends), instead of the point flags below',
      })
      .option('target', { type: 'string', describe: 'Target server, http://HOST:PORT' })
      .option('replica-target', {
        type: 'string',
        array: true,
        describe:
          'Another replica of the target (repeat it; --target is replica 0): the load is against all of them',
      })
      .option('balancer', {
        type: 'string',
        choices: BALANCERS,
        describe: 'How each attempt picks its replica (default random)',
      })
      .option('hedge-to', {
        type: 'string',
        choices: HEDGE_TARGETS,
        describe: 'other: a hedge never goes to a replica its call already used (default); any',
      })
      .option('transport', {
        choices: ['http1', 'grpc'] as const,
        describe: 'How attempts travel: HTTP/1.1 to --target (default), or gRPC unary calls to --grpc-target',
      })
      .option('grpc-target', {
        type: 'string',
        describe: "The target's gRPC listener, HOST:PORT (its --grpc-port; needed with --transport grpc)",
      })
      .option('config', {
        type: 'string',
        describe: 'A reference configuration\'s name (e.g. "hedge, default budget") or a JSON HedgeConfig',
      })
      .option('load', {
        type: 'number',
        describe: 'Load ρ = λ·E[S]/workers (sets the rate)',
      })
      .option('calls', {
        type: 'number',
        describe: 'Calls in the point, warm-up included',
      })
      .option('seed', { type: 'number', describe: 'Seed of the arrival schedule' })
      .option('warmup', { type: 'number', describe: 'Fraction of calls not measured (default 0.1)' })
      .option('model', {
        type: 'string',
        describe: 'Model parameters as JSON (default: the reference model)',
      })
      .option('redis', {
        type: 'string',
        describe:
          'Redis URL for call records and the status hash (needs --run and --point); with those two, env HEDGEBENCH_REDIS_URL also works and keeps a password off the command line',
      })
      .option('run', { type: 'string', describe: 'Run id (names the Redis keys)' })
      .option('point', { type: 'string', describe: 'Point slug (names the Redis keys)' })
      .option('client', {
        type: 'number',
        describe:
          'This process is client N of --clients (default 0): it sends only the calls whose index mod --clients is N, through its own pipeline (own hedge budget and adaptive limit)',
      })
      .option('clients', {
        type: 'number',
        describe:
          "Load generators sharing the point's schedule (1–64, default 1); with --redis they start together (each waits, at most 30 s, until all are warmed up)",
      })
      .option('max-inflight', {
        type: 'number',
        describe: 'Cap on attempts in flight (default 20000); reaching it stops the point as collapsed',
      })
      .option('max-seconds', {
        type: 'number',
        describe: "Cap on the point's wall time (default: schedule length × 3 + 30 s)",
      })
      .option('send-lag-threshold-ms', {
        type: 'number',
        describe:
          'Send-lag p99 above this marks the point invalid, model ms (default 1; × --time-scale on the wall clock)',
      })
      .option('time-scale', {
        type: 'number',
        describe:
          'Run the point k times slower (default 1): every duration of --config and --model (and the thresholds) × k, the rate ÷ k (docs/time-scale.md)',
      })
      .option('server-timing', {
        type: 'boolean',
        describe: 'Parse replies and report client latency minus server-reported time',
      })
      .option('allow-any-target', {
        type: 'boolean',
        describe: 'Allow targets outside loopback and the lab network 198.18.0.0/15',
      })
      .option('timer', {
        choices: ['poll', 'thread'] as const,
        describe:
          'How the clock waits: poll (precise, costs a core; the default unless HEDGEBENCH_TIMER says otherwise) or thread (cheaper, ~2 ms tail)',
      })
      .option('timer-lead-ms', {
        type: 'number',
        describe:
          'How long before a deadline setImmediate polling takes over, ms (default 2 for poll, 0 for thread)',
      })
      .option('clock-samples', {
        type: 'number',
        describe:
          'GET /clock exchanges per clock-offset measurement (before the warm-up and after the last call; default 32); 0 = none, for a target without /clock',
      })
      .option('clock-timeout-ms', {
        type: 'number',
        describe: 'One clock-offset measurement ends within this, ms (default 2000)',
      })
      .option('clock-drift-ms', {
        type: 'number',
        describe:
          'Clock-offset change over the point above this (plus both uncertainties) marks the point invalid, model ms (default 1)',
      })
      .option('path', {
        type: 'string',
        describe:
          "The target's work route with any query (default /work); call=N&attempt=K are added to each request",
      })
      .option('warm-requests', {
        type: 'number',
        describe:
          'Calls to /health before the schedule, to open connections (default 2000; 0 = none, for a service without /health)',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress lines on stderr' })
      .check(pointGiven),
  handler: async (argv) => {
    // One path into the generator: --spec or the flags, either way one PointSpec, checked once there.
    const spec = argv.spec === undefined ? specFromFlags(argv) : parsePointSpec(argv.spec);
    const generator = createLoadGenerator({
      ...spec,
      redisUrl: argv.redis ?? (spec.run && spec.slug ? process.env.HEDGEBENCH_REDIS_URL : undefined),
      timer: argv.timer,
      timerLeadMs: argv['timer-lead-ms'],
      onProgress: argv.quiet ? undefined : progressPrinter(),
      log: (m) => process.stderr.write(`loadgen: ${m}\n`),
    });
    const onSignal = (): void => generator.stop('interrupted');
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    try {
      const result = await generator.run();
      process.stdout.write(`${JSON.stringify(result)}\n`);
      if (!argv.quiet) {
        process.stderr.write(
          `loadgen: ${result.state}${result.error ? ` (${result.error})` : ''}, valid=${result.valid}, collapsed=${result.collapsed}\n`,
        );
      }
      // The point ran (even if invalid or collapsed) = 0; it could not be trusted at all = 1.
      process.exitCode = result.state === 'done' ? 0 : 1;
    } finally {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    }
  },
};

// A usage mistake (exit 2), before any work: the point given twice, or not at all. (Thrown: yargs would
// pass a returned message on as a bare string.)
function pointGiven(argv: LoadgenArgs): true {
  const twice = argv.spec === undefined ? [] : pointFlagsGiven(argv);
  if (twice.length > 0) {
    throw new LoadgenUsageError(
      `give the point either as --spec or as flags, not both: drop ${twice.map((f) => `--${f}`).join(', ')} (or put them in the spec); see --help`,
    );
  }
  const missing = argv.spec === undefined ? REQUIRED_FLAGS.filter((f) => argv[f] === undefined) : [];
  if (missing.length > 0) {
    throw new LoadgenUsageError(
      `Missing required arguments: ${missing.join(', ')} (or give the whole point as --spec JSON); see --help`,
    );
  }
  return true;
}

const REQUIRED_FLAGS = ['target', 'config', 'load', 'calls', 'seed'] as const;

// One stderr line per second at most: the status hash gets every update, a terminal does not need them.
function progressPrinter(): (p: LoadProgress) => void {
  let last = -1;
  return (p) => {
    const s = Math.floor(p.t);
    if (s === last) return;
    last = s;
    const ms = (x: number) => (Number.isFinite(x) ? `${formatMs(x)} ms` : '-');
    process.stderr.write(
      `loadgen: t=${p.t.toFixed(1)} s sent ${p.sent} done ${p.completed} in flight ${p.inflight} p99 ${ms(p.p99Ms)} send-lag p99 ${ms(p.sendLagP99Ms)}\n`,
    );
  };
}
