// The flags of `hedgebench loadgen` that spell a point by hand: which PointSpec field each one sets, and
// the spec they make. `--spec` and these flags are two spellings of one PointSpec; nothing else differs.

import type { PointSpec, PointSpecField } from '../contract/index.ts';
import { parseConfigArg, parseModelArg } from './config-arg.ts';

/** Each point flag and the spec field it sets (a new field needs no flag: `--spec` carries every field). */
const SPEC_FLAGS = {
  target: 'target',
  'replica-target': 'replicaTargets',
  balancer: 'balancer',
  'hedge-to': 'hedgeTo',
  transport: 'transport',
  'grpc-target': 'grpcTarget',
  config: 'config',
  load: 'load',
  calls: 'calls',
  seed: 'seed',
  warmup: 'warmupFraction',
  model: 'model',
  'time-scale': 'timeScale',
  run: 'run',
  point: 'slug',
  client: 'client',
  clients: 'clients',
  'max-inflight': 'maxInflight',
  'max-seconds': 'maxSeconds',
  'send-lag-threshold-ms': 'sendLagThresholdMs',
  'server-timing': 'serverTiming',
  'allow-any-target': 'allowAnyTarget',
  path: 'path',
  'warm-requests': 'warmRequests',
  'clock-samples': 'clockSamples',
  'clock-timeout-ms': 'clockTimeoutMs',
  'clock-drift-ms': 'clockDriftMs',
} as const satisfies Record<string, PointSpecField>;

/** A point flag's name. */
export type SpecFlag = keyof typeof SPEC_FLAGS;

const FLAG_OF = new Map<string, string>(Object.entries(SPEC_FLAGS).map(([flag, field]) => [field, flag]));

/** How messages name a spec field to someone using the flags: `--max-inflight` for maxInflight. */
export function flagOf(field: string): string {
  const flag = FLAG_OF.get(field);
  return flag === undefined ? field : `--${flag}`;
}

/** The spec the given point flags spell (--config and --model read from their text); checked later, once. */
export function specFromFlags(argv: Partial<Record<SpecFlag, unknown>>): PointSpec {
  const spec: Record<string, unknown> = {};
  for (const [flag, field] of Object.entries(SPEC_FLAGS)) {
    const v = argv[flag as SpecFlag];
    if (v !== undefined) spec[field] = v;
  }
  if (typeof argv.config === 'string') spec.config = parseConfigArg(argv.config);
  if (typeof argv.model === 'string') spec.model = parseModelArg(argv.model);
  return spec as PointSpec;
}

/** The point flags present in argv (with `--spec`, none may be). */
export function pointFlagsGiven(argv: Partial<Record<SpecFlag, unknown>>): string[] {
  return Object.keys(SPEC_FLAGS).filter((f) => argv[f as SpecFlag] !== undefined);
}
