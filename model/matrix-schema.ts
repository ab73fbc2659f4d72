// The matrix file's schema: which points a study runs (configs × loads × cancellation modes × seeds and the
// other dimensions), validated with zod so a bad file gets an error per field that says how to fix it; and
// the validated Matrix it becomes (matrix-parse.ts fills in its defaults).

import { z } from 'zod';
import { type DelaySweepEntry, delaySweepEntrySchema } from './delay-sweep.ts';
import { errorProbsSchema } from './error-probs.ts';
import type { FidelityThresholds } from './fidelity-thresholds.ts';
import { type ForeignTarget, targetSchema } from './foreign-target.ts';
import { type Transport, transportSchema } from './grpc-hedging-schema.ts';
import type { HedgeConfig } from './hedge-config.ts';
import { configSchema, MAX_NAME } from './hedge-config-schema.ts';
import { type Margins, marginsSchema } from './margins.ts';
import { modelSchema } from './model-schema.ts';
import type { ModelParams } from './params.ts';
import { type Perturbation, perturbationSchema } from './perturb.ts';
import type { Cancellation } from './point.ts';
import { type ReplicaFields, replicaFieldsSchema } from './replica-dims.ts';
import { positive } from './schema-messages.ts';
import { MAX_TIME_SCALE } from './time-scale.ts';

const MAX_CALLS = 50_000_000;
/** Most independent clients per point (each is a load-generator process on the real side). */
const MAX_CLIENTS = 64;

const seedSchema = z
  .number()
  .int('must be a whole number')
  .min(0, 'must be ≥ 0')
  .max(Number.MAX_SAFE_INTEGER, 'must be ≤ 2^53 − 1');

/**
 * Verdicts that can fail a run or a comparison (`failOn` in the matrix, `--fail-on` on the command line):
 * "measured, but the thresholds failed" is then its own exit code.
 */
export const FAIL_ON_VERDICTS = ['diverges', 'undecided', 'invalid', 'collapse-mismatch', 'missing'] as const;
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
      .array(delaySweepEntrySchema)
      .min(1, 'must list at least one delay, e.g. [5, 10, 20, 40] or ["p95"], or be left out')
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
    perturb: z
      .array(perturbationSchema)
      .min(
        1,
        'must list at least one perturbation ({} = none), e.g. [{}, {"serviceFactor": 1.03}], or be left out',
      )
      .optional(),
    errorProbs: errorProbsSchema,
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
    margins: marginsSchema.optional(),
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
  /**
   * Hedge delays to sweep (ms, or a percentile such as "p95", model/delay-sweep.ts): each hedged configuration
   * runs once per delay; absent = its own delay.
   */
  delaysMs?: DelaySweepEntry[];
  /** Transports to sweep; absent = HTTP/1.1 only. A grpc-js configuration runs over gRPC only. */
  transport?: Transport[];
  /** Client counts to sweep: each point's arrivals split across K independent clients; absent = 1. */
  clients?: number[];
  /**
   * Time scales to sweep (docs/time-scale.md, model/time-scale.ts): each point runs with every duration × k and
   * every rate ÷ k; absent = [1]. "auto" = the run picks k from this machine's measured harness delays.
   */
  timeScale?: number[] | 'auto';
  /**
   * The real side made deliberately wrong, each entry a variant of every point (model/perturb.ts); absent =
   * none. The simulation never sees it: a sensitivity test of the verdict.
   */
  perturb?: Perturbation[];
  /**
   * Failure probabilities to sweep (model/error-probs.ts): each sets the point's `model.errorProb`; absent = the
   * model's own (0 unless it says).
   */
  errorProbs?: number[];
  cancellation: Cancellation[];
  seeds: number[];
  calls: number;
  warmupFraction: number;
  model: ModelParams;
  /** The low-load `no hedge` point used to measure harness overhead; false = none. */
  calibration: { load: number; calls: number } | false;
  /** Above these the harness's own delays make a real point invalid (analysis/judge/fidelity.ts checks them). */
  fidelity: FidelityThresholds;
  /**
   * The verdict's equivalence margins the matrix narrows (model/margins.ts); absent = every cap, and older
   * manifests stay as they were.
   */
  margins?: Partial<Margins>;
  /** Verdicts that fail the run's gate (exit 3); absent = no gate, so older manifests stay as they were. */
  failOn?: FailOnVerdict[];
  /** A service hedgebench did not build: no target server is deployed; absent = hedgebench's own. */
  target?: ForeignTarget;
}
