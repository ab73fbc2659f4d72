// `hedgebench loadgen`: the yargs command that runs one point (loadgen/main.ts runs the same command alone).

import type { CommandModule } from 'yargs';
import { formatMs } from '../contract/index.ts';
import { BALANCERS, type BalancerName, HEDGE_TARGETS, type HedgeTarget } from '../library/index.ts';
import { parseConfigArg, parseModelArg } from './config-arg.ts';
import { createLoadGenerator } from './load-generator.ts';
import type { LoadProgress } from './status.ts';

/** Flags of `hedgebench loadgen`. */
export interface LoadgenArgs {
  target: string;
  'replica-target'?: string[];
  balancer?: BalancerName;
  'hedge-to'?: HedgeTarget;
  transport: 'http1' | 'grpc';
  'grpc-target'?: string;
  config: string;
  load: number;
  calls: number;
  seed: number;
  warmup: number;
  model?: string;
  redis?: string;
  run?: string;
  point?: string;
  client: number;
  clients: number;
  'max-inflight': number;
  'max-seconds'?: number;
  'send-lag-threshold-ms': number;
  'time-scale': number;
  'server-timing': boolean;
  'allow-any-target': boolean;
  quiet: boolean;
  timer?: 'poll' | 'thread';
  'timer-lead-ms'?: number;
  'clock-samples': number;
  'clock-timeout-ms': number;
  'clock-drift-ms': number;
  path?: string;
  'warm-requests'?: number;
}

/** The loadgen command module for orchestrator/cli.ts. */
export const loadgenCommand: CommandModule<object, LoadgenArgs> = {
  command: 'loadgen',
  describe:
    'Run one open-loop Poisson point against a target through the hedge pipeline (prints a JSON summary line)',
  builder: (y) =>
    y
      .option('target', { type: 'string', demandOption: true, describe: 'Target server, http://HOST:PORT' })
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
        default: 'http1' as const,
        describe: 'How attempts travel: HTTP/1.1 to --target, or gRPC unary calls to --grpc-target',
      })
      .option('grpc-target', {
        type: 'string',
        describe: "The target's gRPC listener, HOST:PORT (its --grpc-port; needed with --transport grpc)",
      })
      .option('config', {
        type: 'string',
        demandOption: true,
        describe: 'A reference configuration\'s name (e.g. "hedge, default budget") or a JSON HedgeConfig',
      })
      .option('load', {
        type: 'number',
        demandOption: true,
        describe: 'Load ρ = λ·E[S]/workers (sets the rate)',
      })
      .option('calls', {
        type: 'number',
        demandOption: true,
        describe: 'Calls in the point, warm-up included',
      })
      .option('seed', { type: 'number', demandOption: true, describe: 'Seed of the arrival schedule' })
      .option('warmup', { type: 'number', default: 0.1, describe: 'Fraction of calls not measured' })
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
        default: 0,
        describe:
          'This process is client N of --clients: it sends only the calls whose index mod --clients is N, through its own pipeline (own hedge budget and adaptive limit)',
      })
      .option('clients', {
        type: 'number',
        default: 1,
        describe:
          "Load generators sharing the point's schedule (1–64); with --redis they start together (each waits, at most 30 s, until all are warmed up)",
      })
      .option('max-inflight', {
        type: 'number',
        default: 20_000,
        describe: 'Cap on attempts in flight; reaching it stops the point as collapsed',
      })
      .option('max-seconds', {
        type: 'number',
        describe: "Cap on the point's wall time (default: schedule length × 3 + 30 s)",
      })
      .option('send-lag-threshold-ms', {
        type: 'number',
        default: 1,
        describe:
          'Send-lag p99 above this marks the point invalid, model ms (× --time-scale on the wall clock)',
      })
      .option('time-scale', {
        type: 'number',
        default: 1,
        describe:
          'Run the point k times slower: every duration of --config and --model (and the thresholds) × k, the rate ÷ k (docs/time-scale.md)',
      })
      .option('server-timing', {
        type: 'boolean',
        default: false,
        describe: 'Parse replies and report client latency minus server-reported time',
      })
      .option('allow-any-target', {
        type: 'boolean',
        default: false,
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
        default: 32,
        describe:
          'GET /clock exchanges per clock-offset measurement (before the warm-up and after the last call); 0 = none, for a target without /clock',
      })
      .option('clock-timeout-ms', {
        type: 'number',
        default: 2000,
        describe: 'One clock-offset measurement ends within this, ms',
      })
      .option('clock-drift-ms', {
        type: 'number',
        default: 1,
        describe:
          'Clock-offset change over the point above this (plus both uncertainties) marks the point invalid, ms',
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
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress lines on stderr' }),
  handler: async (argv) => {
    const generator = createLoadGenerator({
      target: argv.target,
      replicaTargets: argv['replica-target'],
      balancer: argv.balancer,
      hedgeTo: argv['hedge-to'],
      transport: argv.transport,
      grpcTarget: argv['grpc-target'],
      config: parseConfigArg(argv.config),
      load: argv.load,
      calls: argv.calls,
      seed: argv.seed,
      warmupFraction: argv.warmup,
      model: parseModelArg(argv.model),
      redisUrl: argv.redis ?? (argv.run && argv.point ? process.env.HEDGEBENCH_REDIS_URL : undefined),
      run: argv.run,
      slug: argv.point,
      client: argv.client,
      clients: argv.clients,
      maxInflight: argv['max-inflight'],
      maxSeconds: argv['max-seconds'],
      sendLagThresholdMs: argv['send-lag-threshold-ms'],
      timeScale: argv['time-scale'],
      serverTiming: argv['server-timing'],
      allowAnyTarget: argv['allow-any-target'],
      timer: argv.timer,
      timerLeadMs: argv['timer-lead-ms'],
      clockSamples: argv['clock-samples'],
      clockTimeoutMs: argv['clock-timeout-ms'],
      clockDriftMs: argv['clock-drift-ms'],
      path: argv.path,
      warmRequests: argv['warm-requests'],
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
