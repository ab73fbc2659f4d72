// `hedgebench probe` and `hedgebench recommend`: argv → createProbe / recommend; the plan first, progress
// on stderr, files into --out, the recommendation on stdout. Ctrl-C stops the probe at once.

import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { ProbeError, ProbeOptionsError } from './errors.ts';
import { readModelFile } from './model-file.ts';
import { createProbe } from './probe.ts';
import { formatRecommendation, recommend } from './recommend.ts';
import { PROBE_FILES, writePartialProbe, writeProbe } from './write-probe.ts';

interface ProbeArgs {
  target: string;
  out?: string;
  'max-rate': number;
  'max-seconds': number;
  'floor-url'?: string;
  'allow-any-target': boolean;
  'timeout-ms': number;
  'low-load-requests': number;
  'step-seconds': number;
  recommend: boolean;
  load?: number;
  'max-requests-per-call': number;
  percentile: number;
  replicas: number;
}

const recommendOptions = {
  load: { type: 'number', describe: 'your expected load ρ (utilisation without hedging), e.g. 0.5' },
  'max-requests-per-call': {
    type: 'number',
    default: 1.1,
    describe: 'most requests per call you accept (1.1 = 10 % extra)',
  },
  percentile: { type: 'number', default: 99, choices: [99, 99.9], describe: 'the tail to minimise' },
  replicas: {
    type: 'number',
    default: 1,
    describe: "your service's replicas behind the client's balancer; 2 or more also tries tied requests",
  },
} as const;

/** yargs module of `hedgebench probe`. */
export const probeCommand: CommandModule<object, ProbeArgs> = {
  command: 'probe',
  describe:
    'Characterise an HTTP service from latency and status alone, fit the model to it, write model.json',
  builder: (y) =>
    y
      .option('target', {
        type: 'string',
        demandOption: 'Pass --target http://HOST:PORT/PATH (a URL of a service you own).',
        describe: 'URL to GET; {n} becomes a running request number',
      })
      .option('out', { type: 'string', describe: 'output folder (default results/<time>-probe)' })
      .option('max-rate', { type: 'number', default: 1000, describe: 'never offer more than this, req/s' })
      .option('max-seconds', {
        type: 'number',
        default: 180,
        describe: 'the whole probe ends within this, s',
      })
      .option('allow-any-target', {
        type: 'boolean',
        default: false,
        describe: 'probe a host outside loopback and 198.18.0.0/15 (a service you own)',
      })
      .option('floor-url', {
        type: 'string',
        describe:
          'a trivial URL on the same server (health check) for the network floor (default: TCP connect)',
      })
      .option('timeout-ms', {
        type: 'number',
        default: 5000,
        describe: 'a request slower than this is a timeout',
      })
      .option('low-load-requests', {
        type: 'number',
        default: 2000,
        describe: 'requests of the low-load phase',
      })
      .option('step-seconds', { type: 'number', default: 4, describe: 'length of one ramp step, s' })
      .option('recommend', {
        type: 'boolean',
        default: false,
        describe: 'then recommend a hedge (needs --load)',
      })
      .options(recommendOptions)
      .example('$0 probe --target http://10.0.0.5:8080/api/item --out probe-item', 'probe one route'),
  handler: async (argv) => {
    if (argv.recommend && argv.load === undefined) {
      throw new ProbeOptionsError('--recommend needs --load, your expected utilisation (e.g. --load 0.5)');
    }
    const out = resolve(argv.out ?? join('results', `${stamp()}-probe`));
    const probe = createProbe({
      target: argv.target,
      maxRate: argv['max-rate'],
      maxSeconds: argv['max-seconds'],
      floorUrl: argv['floor-url'],
      allowAnyTarget: argv['allow-any-target'],
      timeoutMs: argv['timeout-ms'],
      lowLoadRequests: argv['low-load-requests'],
      stepSeconds: argv['step-seconds'],
      onProgress: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(`${probe.plan}\n`);
    const ac = new AbortController();
    const onSigint = () => ac.abort();
    process.once('SIGINT', onSigint);
    try {
      const r = await probe.run(ac.signal);
      const files = await writeProbe(out, r);
      const verdict =
        r.service.poor || r.workers.poor
          ? 'POOR FIT (see probe.md)'
          : r.noise
            ? `fit rests on noisy steps: ${r.noise}`
            : r.floor.noisy
              ? 'fit ok, but the floor is noisy (see probe.md)'
              : 'fit ok';
      process.stdout.write(`model: ${JSON.stringify(r.model)} — ${verdict}\nwrote ${files.join(', ')}\n`);
      if (argv.recommend && argv.load !== undefined) {
        const rec = recommend({
          model: r.model,
          load: argv.load,
          maxRequestsPerCall: argv['max-requests-per-call'],
          percentile: argv.percentile as 99 | 99.9,
          replicas: argv.replicas,
        });
        const text = formatRecommendation(rec);
        writeFileSync(join(out, 'recommendation.md'), text);
        process.stdout.write(text);
      }
    } catch (err) {
      if (err instanceof ProbeError && !(err instanceof ProbeOptionsError)) {
        const files = writePartialProbe(out, argv.target, err);
        process.stderr.write(
          `wrote ${files.join(', ')} (no ${PROBE_FILES.model}: the probe did not complete)\n`,
        );
      }
      throw err;
    } finally {
      process.off('SIGINT', onSigint);
    }
  },
};

interface RecommendArgs {
  model: string;
  load?: number;
  'max-requests-per-call': number;
  percentile: number;
  replicas: number;
  calls: number;
}

/** yargs module of `hedgebench recommend`. */
export const recommendCommand: CommandModule<object, RecommendArgs> = {
  command: 'recommend',
  describe:
    'Simulate hedge delays × budgets and the policies beyond them with a model.json and recommend one for your load',
  builder: (y) =>
    y
      .option('model', {
        type: 'string',
        demandOption: 'Pass --model DIR/model.json (written by `hedgebench probe`).',
        describe: 'model.json',
      })
      .options(recommendOptions)
      .option('calls', { type: 'number', default: 40_000, describe: 'calls per simulated point' })
      .example('$0 recommend --model probe-item/model.json --load 0.5 --max-requests-per-call 1.1', ''),
  handler: (argv) => {
    if (argv.load === undefined)
      throw new ProbeOptionsError('pass --load, your expected utilisation (e.g. 0.5)');
    const model = readModelFile(argv.model);
    const rec = recommend({
      model,
      load: argv.load,
      maxRequestsPerCall: argv['max-requests-per-call'],
      percentile: argv.percentile as 99 | 99.9,
      replicas: argv.replicas,
      calls: argv.calls,
    });
    process.stdout.write(formatRecommendation(rec));
  },
};

function stamp(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
}
