// The matrix file: which points a study runs (configs × loads × cancellation modes × seeds), validated
// with zod so a bad file gets an error per field that says how to fix it, and expanded in a fixed order.

import { z } from 'zod';
import {
  ADAPTIVE_LIMIT_RANGES,
  ConfigError,
  HEDGE_RANGES,
  ManualClock,
  type OptionRange,
} from '../library/index.ts';
import { buildPipeline } from './build-pipeline.ts';
import type { PointDims } from './dimensions.ts';
import { MatrixInvalidError } from './errors.ts';
import { type ForeignTarget, foreignTargetIssues, targetSchema } from './foreign-target.ts';
import {
  grpcHedgingSchema,
  retryThrottlingSchema,
  type Transport,
  transportSchema,
} from './grpc-hedging-schema.ts';
import { type HedgeConfig, hedgerOf, REFERENCE_CONFIGS, referenceConfig } from './hedge-config.ts';
import { DEFAULT_MODEL, type ModelParams } from './params.ts';
import { type Cancellation, formatLoad, type Point, pointKey } from './point.ts';
import {
  pickReplicaFields,
  type ReplicaFields,
  replicaFieldIssues,
  replicaFieldsSchema,
  replicaVariants,
} from './replica-dims.ts';
import { meanServiceMs } from './service-time.ts';
import { MAX_TIME_SCALE } from './time-scale.ts';

const REF_NAMES = REFERENCE_CONFIGS.map((c) => JSON.stringify(c.name)).join(', ');
const MAX_CALLS = 50_000_000;
/** Most independent clients per point (each is a load-generator process on the real side). */
export const MAX_CLIENTS = 64;
/** Longest service time the target server takes (target-server/config.ts), ms. */
const MAX_SERVICE_MS = 60_000;
/** Longest budget window a matrix may name, ms (the library takes longer ones: a dilated clock's). */
const MAX_WINDOW_MS = 60_000;
/** Names become parts of file names and Redis keys (at most 200 characters with the point's suffix). */
const MAX_NAME = 100;

const positive = (what: string) =>
  z.number({ invalid_type_error: `must be a number (${what})` }).positive(`must be > 0 (${what})`);

// Ranges come from the library (library/ranges.ts), so a matrix the schema accepts is one the library
// accepts; the schema may only be stricter (a hedge delay of 0 is allowed by the library, not here).
const H = HEDGE_RANGES;
const L = ADAPTIVE_LIMIT_RANGES;
/** A number within a library range; `low` says what is wrong below it (the max is always `must be ≤ …`). */
const ranged = (r: OptionRange, low: string) => z.number().min(r.min, low).max(r.max, `must be ≤ ${r.max}`);
const upTo = (max: number) => `must be ≤ ${max}`;

const hedgeSchema = z
  .object({
    delayMs: positive('hedge delay in ms, e.g. 20').optional(),
    maxAttempts: z
      .number()
      .int('must be a whole number')
      .min(H.maxAttempts.min, `must be ≥ ${H.maxAttempts.min} (1 means no hedge: drop \`hedge\`)`)
      .max(H.maxAttempts.max, upTo(H.maxAttempts.max))
      .optional(),
    budgetPercent: ranged(H.budgetPercent, 'must be ≥ 0 (0 = no budget)').optional(),
    budgetMinHedgesPerSecond: ranged(H.budgetMinHedgesPerSecond, 'must be ≥ 0').optional(),
    budgetWindowMs: z
      .number({ invalid_type_error: 'must be a number (budget window in ms, e.g. 10000)' })
      .min(H.budgetWindowMs.min, `must be in ${H.budgetWindowMs.min}..${MAX_WINDOW_MS} ms`)
      .max(MAX_WINDOW_MS, `must be in ${H.budgetWindowMs.min}..${MAX_WINDOW_MS} ms`)
      .optional(),
  })
  .strict();

const limitSchema = z
  .object({
    initialLimit: positive('starting limit').optional(),
    minLimit: positive('lowest limit').max(L.minLimit.max, upTo(L.minLimit.max)).optional(),
    maxLimit: positive('highest limit').max(L.maxLimit.max, upTo(L.maxLimit.max)).optional(),
    smoothing: z.number().gt(0, 'must be in (0, 1]').max(L.smoothing.max, 'must be in (0, 1]').optional(),
    rttTolerance: z.number().min(L.rttTolerance.min, 'must be ≥ 1').optional(),
    longWindow: ranged(L.longWindow, 'must be a whole number ≥ 1').int().optional(),
    queueSize: ranged(L.queueSize, 'must be ≥ 0').optional(),
    windowed: z.boolean().optional(),
  })
  .strict();

const configObjectSchema = z
  .object({
    name: z
      .string()
      .min(1, 'must be a non-empty name (it labels rows and tables)')
      .max(MAX_NAME, `must be at most ${MAX_NAME} characters (it names files and Redis keys)`),
    hedge: hedgeSchema.optional(),
    adaptiveLimit: limitSchema.optional(),
    grpcHedging: grpcHedgingSchema.optional(),
    retryThrottling: retryThrottlingSchema.optional(),
  })
  .strict();

// A reference name or a user's object; checked by hand so an object's errors keep their own field paths.
const configSchema = z.custom<string | HedgeConfig>().superRefine((v, ctx) => {
  if (typeof v === 'string') {
    if (referenceConfig(v) === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `${JSON.stringify(v)} is not a reference configuration; use one of ${REF_NAMES}, or write an object { name, hedge?, adaptiveLimit? }`,
      });
    }
    return;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `must be a reference configuration name (${REF_NAMES}) or an object { name, hedge?, adaptiveLimit? }`,
    });
    return;
  }
  const r = configObjectSchema.safeParse(v);
  if (!r.success)
    for (const i of r.error.issues) ctx.addIssue({ ...i, message: issueText(i) } as z.IssueData);
});

/** The matrix's `model` object: every field optional over the reference model (a probe's model.json too). */
export const modelSchema = z
  .object({
    workers: z.number().int('must be a whole number').min(1, 'must be ≥ 1').max(4096).optional(),
    medianMs: positive('median service time in ms').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms').optional(),
    sigma: z.number().min(0, 'must be ≥ 0').max(5, 'must be ≤ 5').optional(),
    stragglerProb: z.number().min(0, 'must be in [0, 1]').max(1, 'must be in [0, 1]').optional(),
    stragglerMinMs: z.number().min(0, 'must be ≥ 0').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms').optional(),
    stragglerMaxMs: z.number().min(0, 'must be ≥ 0').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms').optional(),
    service: z
      .discriminatedUnion('kind', [
        z
          .object({
            kind: z.literal('exponential'),
            meanMs: positive('mean service time in ms').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms'),
          })
          .strict(),
        z
          .object({
            kind: z.literal('constant'),
            ms: positive('service time in ms').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms'),
          })
          .strict(),
      ])
      .optional(),
  })
  .strict();

const seedSchema = z
  .number()
  .int('must be a whole number')
  .min(0, 'must be ≥ 0')
  .max(Number.MAX_SAFE_INTEGER, 'must be ≤ 2^53 − 1');

/**
 * Verdicts that can fail a run or a comparison (`failOn` in the matrix, `--fail-on` on the command line):
 * "measured, but the thresholds failed" is then its own exit code.
 */
export const FAIL_ON_VERDICTS = ['diverges', 'invalid', 'collapse-mismatch', 'missing'] as const;
/** One verdict a gate can fail on. */
export type FailOnVerdict = (typeof FAIL_ON_VERDICTS)[number];

/** The matrix as a user writes it (JSON). */
export const matrixSchema = z
  .object({
    name: z
      .string()
      .min(1, 'must be a non-empty name for the study')
      .max(MAX_NAME, `must be at most ${MAX_NAME} characters (it names the run folder)`),
    description: z.string().optional(),
    configs: z.array(configSchema).min(1, 'must list at least one configuration'),
    loads: z
      .array(
        z
          .number()
          .min(0.01, 'must be ≥ 0.01 (a load is λ·E[S]/workers; loads are keyed with two decimals)')
          .max(2, 'must be ≤ 2'),
      )
      .min(1, 'must list at least one load, e.g. [0.5, 0.95]'),
    delaysMs: z
      .array(positive('hedge delay in ms, e.g. 20'))
      .min(1, 'must list at least one delay, e.g. [5, 10, 20, 40], or be left out')
      .optional(),
    ...replicaFieldsSchema,
    transport: transportSchema.optional(),
    clients: z
      .array(
        z
          .number()
          .int('must be a whole number of clients')
          .min(1, 'must be ≥ 1')
          .max(MAX_CLIENTS, `must be ≤ ${MAX_CLIENTS}`),
      )
      .min(1, 'must list at least one client count, e.g. [1, 4], or be left out')
      .optional(),
    timeScale: z
      .union(
        [
          z.literal('auto'),
          z
            .array(
              z
                .number({ invalid_type_error: 'must be a number (a time scale k ≥ 1, e.g. 5)' })
                .min(1, 'must be ≥ 1 (1 = the real clock undilated; 5 = every duration × 5)')
                .max(MAX_TIME_SCALE, `must be ≤ ${MAX_TIME_SCALE}`),
            )
            .min(1, 'must list at least one time scale, e.g. [1, 5], or be "auto" or left out'),
        ],
        {
          errorMap: () => ({
            message: `must be a list of time scales (each in 1..${MAX_TIME_SCALE}, e.g. [5]) or "auto"`,
          }),
        },
      )
      .optional(),
    cancellation: z
      .array(
        z.enum(['ignore', 'propagate'], { errorMap: () => ({ message: "must be 'ignore' or 'propagate'" }) }),
      )
      .min(1, "must list at least one mode: 'ignore' and/or 'propagate'"),
    seeds: z.array(seedSchema).min(1, 'must list at least one seed, e.g. [1]'),
    calls: z
      .number()
      .int('must be a whole number')
      .min(10, 'must be ≥ 10')
      .max(MAX_CALLS, `must be ≤ ${MAX_CALLS}`),
    warmupFraction: z.number().min(0, 'must be in [0, 1)').lt(1, 'must be in [0, 1)').optional(),
    model: modelSchema.optional(),
    target: targetSchema.optional(),
    calibration: z
      .union([
        z.literal(false),
        z
          .object({
            load: z.number().min(0.01, 'must be ≥ 0.01').max(1, 'must be ≤ 1'),
            calls: z.number().int('must be a whole number').min(10, 'must be ≥ 10').max(MAX_CALLS),
          })
          .strict(),
      ])
      .optional(),
    fidelity: z
      .object({
        holdOvershootP99Ms: positive('hold overshoot p99 in ms, e.g. 1').optional(),
        transitP99Ms: positive('request + response transit p99 in ms, e.g. 2').optional(),
        responseDelayP99Ms: positive('target response delay p99 in ms, e.g. 5').optional(),
        sendLagP99Ms: positive("the load generator's send-lag p99 in ms, e.g. 1").optional(),
      })
      .strict()
      .optional(),
    failOn: z
      .array(
        z.enum(FAIL_ON_VERDICTS, {
          errorMap: () => ({ message: `must be one of ${FAIL_ON_VERDICTS.map((v) => `'${v}'`).join(', ')}` }),
        }),
      )
      .optional(),
  })
  .strict();

/** The matrix as written in JSON. */
export type MatrixSpec = z.input<typeof matrixSchema>;

/** A validated matrix with every default filled in and every configuration resolved. */
export interface Matrix extends ReplicaFields {
  name: string;
  description: string;
  configs: HedgeConfig[];
  loads: number[];
  /** Hedge delays to sweep (ms): each hedged configuration runs once per delay; absent = its own delay. */
  delaysMs?: number[];
  /** Transports to sweep; absent = HTTP/1.1 only. A grpc-js configuration runs over gRPC only. */
  transport?: Transport[];
  /** Client counts to sweep: each point's arrivals split across K independent clients; absent = 1. */
  clients?: number[];
  /**
   * Time scales to sweep (docs/time-scale.md, model/time-scale.ts): each point runs with every duration × k and
   * every rate ÷ k; absent = [1]. "auto" = the run picks k from this machine's measured harness delays.
   */
  timeScale?: number[] | 'auto';
  cancellation: Cancellation[];
  seeds: number[];
  calls: number;
  warmupFraction: number;
  model: ModelParams;
  /** The low-load `no hedge` point used to measure harness overhead; false = none. */
  calibration: { load: number; calls: number } | false;
  /** Above these the harness's own delays make a real point invalid (analysis/fidelity.ts checks them). */
  fidelity: FidelityThresholds;
  /** Verdicts that fail the run's gate (exit 3); absent = no gate, so older manifests stay as they were. */
  failOn?: FailOnVerdict[];
  /** A service hedgebench did not build: no target server is deployed; absent = hedgebench's own. */
  target?: ForeignTarget;
}

/** The harness's limits on itself at the target's end, ms (`fidelity` in the matrix). */
export interface FidelityThresholds {
  /** Hold overshoot p99: actual − intended hold of served attempts (the target's own histogram). */
  holdOvershootP99Ms: number;
  /** Request + response transit p99: what HTTP and both event loops add to a call. */
  transitP99Ms: number;
  /** Target response delay p99: worker released → response written, the wait for the event loop. */
  responseDelayP99Ms: number;
  /** The load generator's send-lag p99: when a call's request was written − when it was due. */
  sendLagP99Ms: number;
}

/** The goals the harness is held to; bench/RESULTS.md says how close a machine gets. */
export const FIDELITY_DEFAULTS: Readonly<FidelityThresholds> = Object.freeze({
  holdOvershootP99Ms: 1,
  transitP99Ms: 2,
  responseDelayP99Ms: 5,
  sendLagP99Ms: 1,
});

/** Default calibration: `no hedge` at load 0.1 for 1000 calls. */
export const DEFAULT_CALIBRATION = Object.freeze({ load: 0.1, calls: 1000 });

/**
 * What to call a top-level field in messages instead of its matrix path, e.g. { configs: '--config' } for
 * a one-point "matrix" built from command-line flags: `configs[0].hedge` is then reported as `--config.hedge`.
 */
export type FieldLabels = Partial<Record<keyof MatrixSpec, string>>;

/** Validates a parsed JSON value; throws MatrixInvalidError listing every bad field (`source` names the file). */
export function parseMatrix(json: unknown, source = 'matrix', labels: FieldLabels = {}): Matrix {
  const at = (path: (string | number)[]) => fieldPath(path, labels);
  // A model.json path is resolved by the matrix file's reader (simulator/matrix-file.ts); here it is an error
  // of its own, and the rest of the matrix is still checked.
  const modelPath =
    typeof json === 'object' && json !== null && 'model' in json && typeof json.model === 'string'
      ? json.model
      : null;
  const pathIssues =
    modelPath === null
      ? []
      : [
          `${at(['model'])}: ${JSON.stringify(modelPath)}: a path to a model.json is read only from a matrix file (hedgebench run/simulate --matrix FILE, relative to that file); write the model object here instead`,
        ];
  const r = matrixSchema.safeParse(modelPath === null ? json : { ...(json as object), model: undefined });
  if (!r.success || pathIssues.length > 0) {
    const issues = [
      ...pathIssues,
      ...(r.success ? [] : r.error.issues.map((i) => `${at(i.path)}: ${issueText(i)}`)),
    ];
    throw new MatrixInvalidError(`${source} is not a valid matrix:\n  - ${issues.join('\n  - ')}`, issues, {
      cause: r.success ? undefined : r.error,
    });
  }
  const m = r.data;
  const configs = m.configs.map((c) => (typeof c === 'string' ? structuredClone(referenceConfig(c)!) : c));
  const issues = [
    ...duplicates(configs.map((c) => c.name)).map(
      (n) => `configs: the name ${JSON.stringify(n)} appears twice; names label rows, so make them unique`,
    ),
    ...duplicates(m.loads.map(formatLoad)).map(
      (l) => `loads: two loads print as ${l}; loads are keyed with two decimals, so make them differ there`,
    ),
    ...duplicates((m.delaysMs ?? []).map(String)).map(
      (d) => `delaysMs: ${d} appears twice; list each delay once`,
    ),
    ...duplicates(m.transport ?? []).map((t) => `transport: '${t}' appears twice; list each transport once`),
    ...configs.flatMap((c, i) =>
      hedgerOf(c) === 'grpc-js' && !(m.transport ?? []).includes('grpc')
        ? [
            `${at(['configs', i])}: ${JSON.stringify(c.name)} is hedged by grpc-js (grpcHedging), which needs gRPC; add "transport": ["grpc"] (or ["http1", "grpc"])`,
          ]
        : [],
    ),
    ...duplicates((m.clients ?? []).map(String)).map(
      (k) => `clients: ${k} appears twice; list each client count once`,
    ),
    ...(Array.isArray(m.timeScale)
      ? duplicates(m.timeScale.map(String)).map(
          (k) => `timeScale: ${k} appears twice; list each time scale once`,
        )
      : []),
    ...(m.timeScale === 'auto' && m.calibration === false
      ? [
          'timeScale: "auto" measures this machine\'s harness delays at the calibration point, and calibration is false; give a calibration point (or leave it out for the default) or a time scale, e.g. [5]',
        ]
      : []),
    ...duplicates(m.cancellation).map((c) => `cancellation: '${c}' appears twice; list each mode once`),
    ...duplicates(m.seeds.map(String)).map((s) => `seeds: ${s} appears twice; list each seed once`),
    ...replicaFieldIssues(m),
    ...(m.target === undefined ? [] : foreignTargetIssues(m, at)),
    ...configs.flatMap((c, i) => pipelineIssue(c, at(['configs', i]))),
  ];
  const model: ModelParams = { ...DEFAULT_MODEL, ...m.model };
  issues.push(...modelIssues(model, at));
  if (issues.length > 0) {
    throw new MatrixInvalidError(`${source} is not a valid matrix:\n  - ${issues.join('\n  - ')}`, issues);
  }
  return {
    name: m.name,
    description: m.description ?? '',
    configs,
    loads: [...m.loads],
    ...(m.delaysMs === undefined ? {} : { delaysMs: [...m.delaysMs] }),
    ...pickReplicaFields(m),
    ...(m.transport === undefined ? {} : { transport: [...m.transport] }),
    ...(m.clients === undefined ? {} : { clients: [...m.clients] }),
    ...(m.timeScale === undefined ? {} : { timeScale: m.timeScale === 'auto' ? 'auto' : [...m.timeScale] }),
    cancellation: [...m.cancellation],
    seeds: [...m.seeds],
    calls: m.calls,
    warmupFraction: m.warmupFraction ?? 0.1,
    model,
    calibration: m.calibration === undefined ? { ...DEFAULT_CALIBRATION } : m.calibration,
    fidelity: { ...FIDELITY_DEFAULTS, ...m.fidelity },
    ...(m.failOn === undefined ? {} : { failOn: [...new Set(m.failOn)] }),
    ...(m.target === undefined ? {} : { target: { url: m.target.url } }),
  };
}

/**
 * Every point of the matrix, ordered seed → cancellation → config → delay → transport → replica dims →
 * clients → load (each in file order; model/replica-dims.ts orders the replica dims).
 */
export function expandMatrix(m: Matrix): Point[] {
  const out: Point[] = [];
  for (const k of timeScales(m)) {
    for (const seed of m.seeds) {
      for (const cancellation of m.cancellation) {
        for (const config of m.configs) {
          const variants = delayVariants(config, m.delaysMs).flatMap((v) =>
            transportVariants(v, m.transport),
          );
          for (const { config: c, dims: base } of variants) {
            for (const dims of replicaVariants(c, base, m).flatMap((d) => clientVariants(d, m.clients))) {
              for (const load of m.loads) {
                const all = withTimeScale(dims, k);
                out.push({
                  config: c,
                  load,
                  cancellation,
                  seed,
                  calls: m.calls,
                  warmupFraction: m.warmupFraction,
                  model: m.model,
                  ...(all === undefined ? {} : { dims: all }),
                });
              }
            }
          }
        }
      }
    }
  }
  return out;
}

/**
 * The time scales a matrix's points run at: its list, or [1] when it has none. An unresolved "auto" expands
 * as 1 (the simulator's answer in model time does not depend on k); `hedgebench run` resolves it first.
 */
export function timeScales(m: Pick<Matrix, 'timeScale'>): number[] {
  return Array.isArray(m.timeScale) ? m.timeScale : [1];
}

// The time scale is the last of a point's dimensions; k = 1 is the default and adds nothing.
function withTimeScale(dims: PointDims | undefined, k: number): PointDims | undefined {
  return k === 1 ? dims : { ...dims, timeScale: k };
}

// A delay sweep replaces a hedged configuration's delay; an unhedged one has no delay and runs once.
function delayVariants(
  config: HedgeConfig,
  delaysMs: readonly number[] | undefined,
): { config: HedgeConfig; dims?: PointDims }[] {
  if (delaysMs === undefined || config.hedge === undefined) return [{ config }];
  return delaysMs.map((delayMs) => ({
    config: { ...config, hedge: { ...config.hedge, delayMs } },
    dims: { delayMs },
  }));
}

// Each transport of the matrix (HTTP/1.1 by default, absent from the dimensions); a configuration hedged by
// grpc-js runs over gRPC only, and says so in its `hedger`.
/** The clients dimension on top of `dims`: one client is the default, so it adds no `clients` there. */
function clientVariants(
  dims: PointDims | undefined,
  clients: readonly number[] | undefined,
): (PointDims | undefined)[] {
  return (clients ?? [1]).map((k) => (k === 1 ? dims : { ...dims, clients: k }));
}

function transportVariants(
  v: { config: HedgeConfig; dims?: PointDims },
  transports: readonly Transport[] | undefined,
): { config: HedgeConfig; dims?: PointDims }[] {
  const grpcJs = hedgerOf(v.config) === 'grpc-js';
  return (transports ?? ['http1'])
    .filter((t) => !grpcJs || t === 'grpc')
    .map((t) => {
      const dims: PointDims = {
        ...v.dims,
        ...(t === 'grpc' ? { transport: 'grpc' as const } : {}),
        ...(grpcJs ? { hedger: 'grpc-js' as const } : {}),
      };
      return Object.keys(dims).length === 0 ? { config: v.config } : { config: v.config, dims };
    });
}

/**
 * The calibration points (`no hedge`, low load, first cancellation mode, first seed, first transport): one
 * per time scale, since the harness overhead each measures is that scale's. A point whose key the matrix
 * already has is left out (that point serves); none when the matrix has no calibration.
 */
export function calibrationPoints(m: Matrix): Point[] {
  const keys = new Set(expandMatrix(m).map(pointKey));
  return calibrationCandidates(m).filter((p) => !keys.has(pointKey(p)));
}

/** The first calibration point (the first time scale's), or null; see calibrationPoints. */
export function calibrationPoint(m: Matrix): Point | null {
  const [first] = calibrationCandidates(m);
  return first === undefined || expandMatrix(m).some((q) => pointKey(q) === pointKey(first)) ? null : first;
}

/** Every time scale's calibration point, whether or not the matrix has one of the same key. */
export function calibrationCandidates(m: Matrix): Point[] {
  const c = m.calibration;
  if (c === false) return [];
  return timeScales(m).map((k) => {
    const dims = withTimeScale(m.transport?.[0] === 'grpc' ? { transport: 'grpc' } : undefined, k);
    return {
      config: structuredClone(referenceConfig('no hedge')!),
      load: c.load,
      cancellation: m.cancellation[0],
      seed: m.seeds[0],
      calls: c.calls,
      warmupFraction: m.warmupFraction,
      model: m.model,
      ...(dims === undefined ? {} : { dims }),
    };
  });
}

/** What the command line may override in a matrix (--calls, --seed, --time-scale). */
export interface MatrixOverrides {
  calls?: number;
  seed?: number;
  timeScale?: number | 'auto';
}

/** Replaces the calls, seeds and/or time scale of a matrix (the CLI's --calls / --seed / --time-scale). */
export function overrideMatrix(m: Matrix, o: MatrixOverrides): Matrix {
  const spec = { ...m, description: m.description, calibration: m.calibration };
  if (o.calls !== undefined) spec.calls = o.calls;
  if (o.seed !== undefined) spec.seeds = [o.seed];
  if (o.timeScale !== undefined) spec.timeScale = o.timeScale === 'auto' ? 'auto' : [o.timeScale];
  return parseMatrix(spec, 'matrix with command-line overrides');
}

/** What the model schema cannot check field by field: stragglers' range, and a mean that gives a rate. */
export function modelIssues(model: ModelParams, at: (path: (string | number)[]) => string): string[] {
  const issues: string[] = [];
  if (model.stragglerMaxMs < model.stragglerMinMs) {
    issues.push(
      `${at(['model', 'stragglerMaxMs'])}: ${model.stragglerMaxMs} is below stragglerMinMs ${model.stragglerMinMs}; make max ≥ min`,
    );
  }
  const meanMs = meanServiceMs(model);
  if (!(meanMs > 0 && Number.isFinite(meanMs))) {
    issues.push(
      `${at(['model'])}: the mean service time is ${meanMs} ms (stragglerProb ${model.stragglerProb}, stragglers ${model.stragglerMinMs}–${model.stragglerMaxMs} ms), so no arrival rate follows from a load; lower stragglerProb or raise stragglerMaxMs`,
    );
  }
  return issues;
}

function fieldPath(path: (string | number)[], labels: FieldLabels): string {
  if (path.length === 0) return '(top level)';
  const label = labels[path[0] as keyof MatrixSpec];
  // A labelled field stands for the whole top-level value, or for its single element when it is a list.
  const rest = label === undefined ? path : path.slice(typeof path[1] === 'number' ? 2 : 1);
  const text = rest.map((p, i) =>
    typeof p === 'number' ? `[${p}]` : i === 0 && label === undefined ? p : `.${p}`,
  );
  return `${label ?? ''}${text.join('')}`;
}

function issueText(i: z.ZodIssue): string {
  if (i.code === 'unrecognized_keys') {
    return `unknown field(s) ${i.keys.map((k) => JSON.stringify(k)).join(', ')}; remove them or check the spelling`;
  }
  if (i.code === 'invalid_type' && i.received === 'undefined') return `is required (${i.expected})`;
  if (i.code === 'invalid_type' && i.expected === 'integer') return 'must be a whole number';
  if (i.code === 'invalid_type' && i.message.startsWith('Expected')) {
    return `must be ${i.expected}, got ${i.received}`;
  }
  return i.message;
}

// The library checks what the schema cannot (e.g. minLimit ≤ maxLimit, initialLimit between them): ask it
// now, so a bad configuration stops the run before it starts and not when its first point is simulated.
function pipelineIssue(c: HedgeConfig, where: string): string[] {
  try {
    buildPipeline(c, new ManualClock());
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return [`${where}: ${err.message}`];
    throw err;
  }
}

function duplicates(xs: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const x of xs) (seen.has(x) ? dup : seen).add(x);
  return [...dup];
}
