// The body of PUT /config, the one payload the orchestrator sends a target server between points: its zod
// schema (the server validates with it) and its types (the orchestrator builds the body to them).

import { z } from 'zod';
import { MAX_TIME_SCALE } from '../model/index.ts';

const keyPart = z
  .string()
  .regex(
    /^[A-Za-z0-9._%+-]{1,200}$/,
    'must be 1–200 characters of A-Z a-z 0-9 . _ % + - (it becomes a Redis key)',
  );

const modelPatch = z
  .object({
    workers: z.number().int('must be a whole number').min(1, 'must be ≥ 1').max(4096, 'must be ≤ 4096'),
    medianMs: z.number().positive('must be > 0 (ms)').max(60_000, 'must be ≤ 60000 ms'),
    sigma: z.number().min(0, 'must be ≥ 0').max(5, 'must be ≤ 5'),
    stragglerProb: z.number().min(0, 'must be in [0, 1]').max(1, 'must be in [0, 1]'),
    stragglerMinMs: z.number().min(0, 'must be ≥ 0').max(60_000, 'must be ≤ 60000 ms'),
    stragglerMaxMs: z.number().min(0, 'must be ≥ 0').max(60_000, 'must be ≤ 60000 ms'),
    service: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('exponential'), meanMs: z.number().positive().max(60_000) }).strict(),
        z.object({ kind: z.literal('constant'), ms: z.number().positive().max(60_000) }).strict(),
      ])
      .nullable(),
    // The model's failures and pushback (model/attempt-failure.ts), in model ms: the target dilates them.
    errorProb: z.number().min(0, 'must be in [0, 1)').lt(1, 'must be in [0, 1)'),
    errorMs: z.number().min(0, 'must be ≥ 0 (ms)').max(60_000, 'must be ≤ 60000 ms'),
    errorCorrelation: z.number().min(0, 'must be in [0, 1]').max(1, 'must be in [0, 1]'),
    pushback: z
      .object({
        queueAbove: z.number().int('must be a whole number').min(0, 'must be ≥ 0'),
        ms: z.number().positive('must be > 0 (ms)').max(60_000, 'must be ≤ 60000 ms'),
      })
      .strict(),
  })
  .partial()
  .strict();

/** The body of PUT /config: every field optional; `run` and `slug` together (null = stop recording). */
export const targetConfigSchema = z
  .object({
    workers: z.number().int('must be a whole number').min(1, 'must be ≥ 1').max(4096, 'must be ≤ 4096'),
    model: modelPatch,
    seed: z
      .number()
      .int('must be a whole number')
      .min(0, 'must be ≥ 0')
      .max(Number.MAX_SAFE_INTEGER, 'must be ≤ 2^53 − 1'),
    cancellation: z.enum(['ignore', 'propagate'], {
      errorMap: () => ({ message: "must be 'ignore' or 'propagate'" }),
    }),
    run: keyPart.nullable(),
    slug: keyPart.nullable(),
    replica: z.number().int('must be a whole number').min(0, 'must be ≥ 0').max(1023, 'must be ≤ 1023'),
    replicas: z.number().int('must be a whole number').min(1, 'must be ≥ 1').max(1024, 'must be ≤ 1024'),
    correlation: z.number().min(0, 'must be in [0, 1]').max(1, 'must be in [0, 1]'),
    slowReplica: z.number().min(1, 'must be ≥ 1 (1 = not slow)').max(100, 'must be ≤ 100'),
    timeScale: z
      .number()
      .min(1, 'must be ≥ 1 (1 = the undilated clock)')
      .max(MAX_TIME_SCALE, `must be ≤ ${MAX_TIME_SCALE}`),
    /**
     * Tied requests (docs/replicas.md): every replica's base URL, replica index → `http://HOST:PORT`, as the
     * other target servers reach it (loopback ports locally, the hosts' own addresses in the lab); [] = none.
     */
    peers: z
      .array(z.string().max(200, 'must be at most 200 characters, http://HOST:PORT'))
      .max(1024, 'must list at most 1024 replicas'),
    /** The point's calls are tied, this many copies each, cancelling each other on start; 0 = not tied. */
    tiedCopies: z
      .number()
      .int('must be a whole number')
      .min(0, 'must be 0 (not tied) or 2..10 (copies per call)')
      .max(10, 'must be ≤ 10 (copies per call)'),
    /** A perturbation (model/perturb.ts): model ms to wait after releasing a worker before answering. */
    responseDelayMs: z.number().min(0, 'must be ≥ 0 (model ms)').max(60_000, 'must be ≤ 60000 ms'),
  })
  .partial()
  .strict();

/** A parsed PUT /config body: every field optional (an omitted field keeps the server's value). */
export type TargetConfigPatch = z.infer<typeof targetConfigSchema>;

/**
 * The body the orchestrator sends to set a target to a point: every field given, since a target keeps the
 * last point's value of a field left out; `run` and `slug` name the point whose attempts are recorded.
 */
export type TargetConfig = Required<Omit<TargetConfigPatch, 'run' | 'slug'>> & { run: string; slug: string };
