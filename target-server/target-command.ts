// `hedgebench target-server`: the yargs command that runs the target server (main.ts reuses it).

import type { CommandModule } from 'yargs';
import { EXIT_CODES } from '../library/index.ts';
import { reportFatal } from '../runtime/index.ts';
import { runTargetServer } from './server-process.ts';

/** Flags of `hedgebench target-server`. */
interface TargetServerArgs {
  host: string;
  port: number;
  'grpc-port'?: number;
  workers: number;
  seed: number;
  cancellation: 'ignore' | 'propagate';
  redis?: string;
  'token-file'?: string;
  timer: 'thread' | 'poll';
  'timer-lead-ms'?: number;
  pool: 'thread' | 'loop';
  'pool-priority': 'rt' | 'normal';
  'stall-main-ms'?: number;
  'stall-every-ms': number;
}

/** The target-server command module for orchestrator/cli/cli.ts. */
export const targetServerCommand: CommandModule<object, TargetServerArgs> = {
  command: 'target-server',
  describe:
    "Run the target server: the model's worker pool behind HTTP (prints one JSON line when listening)",
  builder: (y) =>
    y
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Interface to bind (the only one)' })
      .option('port', {
        type: 'number',
        default: 0,
        describe: 'Port; 0 picks a free one (see the listening line)',
      })
      .option('grpc-port', {
        type: 'number',
        describe:
          'Also serve hedgebench.Target/Work over gRPC on this port (0 picks a free one; see the listening line)',
      })
      .option('workers', { type: 'number', default: 16, describe: 'Workers behind the one FIFO queue' })
      .option('seed', { type: 'number', default: 1, describe: 'Seed of the service-time draws' })
      .option('cancellation', {
        choices: ['ignore', 'propagate'] as const,
        default: 'ignore' as const,
        describe: 'What a client abort does: nothing, or free the queue slot / worker at once',
      })
      .option('redis', {
        type: 'string',
        describe:
          'Redis URL for attempt records (redis://[:pass@]host:port, rediss:// for TLS; or env HEDGEBENCH_REDIS_URL)',
      })
      .option('token-file', {
        type: 'string',
        describe: 'File holding the bearer token for PUT /config and POST /reset (or env HEDGEBENCH_TOKEN)',
      })
      .option('timer', {
        choices: ['thread', 'poll'] as const,
        default: 'thread' as const,
        describe:
          'How workers are held: a waker thread (precise, idle while waiting) or setImmediate polling',
      })
      .option('timer-lead-ms', {
        type: 'number',
        describe:
          'How long before a deadline setImmediate polling takes over, ms (default 0 for thread, 2 for poll; poll 0 = plain setTimeout)',
      })
      .option('pool', {
        choices: ['thread', 'loop'] as const,
        default: 'thread' as const,
        describe:
          'Where workers are held: a thread of their own (an event-loop stall delays responses, not ends) or the main event loop',
      })
      .option('pool-priority', {
        choices: ['rt', 'normal'] as const,
        default: 'rt' as const,
        describe: 'pool thread: SCHED_FIFO 20 when permitted (else normal, logged), or normal',
      })
      .option('stall-main-ms', {
        type: 'number',
        hidden: true,
        // Tests of a whole run reach a target they do not start through its environment.
        default: envNumber('HEDGEBENCH_TEST_STALL_MAIN_MS'),
        describe:
          'Benchmarks and tests only (env HEDGEBENCH_TEST_STALL_MAIN_MS): busy-loop the main thread this long every --stall-every-ms',
      })
      .option('stall-every-ms', {
        type: 'number',
        hidden: true,
        default: envNumber('HEDGEBENCH_TEST_STALL_EVERY_MS') ?? 50,
      }),
  handler: async (argv) => {
    try {
      await runTargetServer({
        host: argv.host,
        port: argv.port,
        grpcPort: argv['grpc-port'],
        workers: argv.workers,
        seed: argv.seed,
        cancellation: argv.cancellation,
        redis: argv.redis,
        tokenFile: argv['token-file'],
        timer: argv.timer,
        timerLeadMs: argv['timer-lead-ms'],
        pool: argv.pool,
        poolPriority: argv['pool-priority'],
        mainLoopStall:
          argv['stall-main-ms'] === undefined
            ? undefined
            : { ms: argv['stall-main-ms'], everyMs: argv['stall-every-ms'] },
      });
    } catch (err) {
      // One line, no stack, same under `hedgebench target-server` and the bundle: 2 = bad options, 1 = failure.
      // Exit now: timers of attempts abandoned at shutdown must not keep the process alive.
      process.exit(reportFatal('target-server', err));
    }
    // Timers of attempts abandoned at shutdown must not keep the process alive.
    process.exit(EXIT_CODES.ok);
  },
};

function envNumber(name: string): number | undefined {
  const v = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(v) && v > 0 ? v : undefined;
}
