// The point spec: everything one load-generator process needs about its point, declared once. The
// orchestrator writes it (pointSpecJson), `hedgebench loadgen --spec` reads it (parsePointSpec), and the
// load generator's options are this type plus the process's own wiring (Redis connection, clock, callbacks).

import { z } from 'zod';
import { BALANCERS, HEDGE_TARGETS, MAX_REPLICAS } from '../library/index.ts';
import {
  DEFAULT_MODEL,
  type HedgeConfig,
  hedgerOf,
  MAX_TIME_SCALE,
  matrixSchema,
  modelIssues,
  peerCancelCopies,
  referenceConfig,
  tiedPeersIssue,
} from '../model/index.ts';
import { PointSpecError } from './errors.ts';

// The point's own fields are checked by the matrix's schemas for them: a point the loadgen accepts is one a
// matrix could have named, with the same words in the messages.
const M = matrixSchema.shape;
const oneOf = (values: readonly string[]) => ({
  errorMap: () => ({ message: `use one of ${values.join(', ')}` }),
});
const positive = z.number().positive('must be a number > 0');
const count = (max: number) =>
  z
    .number()
    .int(`must be a whole number in 0..${max}`)
    .min(0, `must be a whole number in 0..${max}`)
    .max(max);

const fields = z
  .object({
    /** `http://host:port` of the target server (replica 0 when there are several). */
    target: z.string().min(1, 'must be the target, http://HOST:PORT'),
    /** The targets of replicas 1..R−1, after `target` (default none: one replica). */
    replicaTargets: z
      .array(z.string())
      .max(MAX_REPLICAS - 1, `give at most ${MAX_REPLICAS - 1} targets after the target`)
      .optional(),
    /** How the client picks each attempt's replica (default random; only with replicaTargets). */
    balancer: z.enum(BALANCERS, oneOf(BALANCERS)).optional(),
    /** Where hedges go: `other` replicas (default) or `any` (only with replicaTargets). */
    hedgeTo: z.enum(HEDGE_TARGETS, oneOf(HEDGE_TARGETS)).optional(),
    /** How attempts travel (default 'http1'); 'grpc' sends them to `grpcTarget`. */
    transport: M.transport.unwrap().element.optional(),
    /** `host:port` of the target's gRPC listener; required with transport 'grpc'. */
    grpcTarget: z.string().optional(),
    /** A reference configuration's name, or a HedgeConfig; read as the configuration itself. */
    config: M.configs.element.transform(
      (c): HedgeConfig => (typeof c === 'string' ? structuredClone(referenceConfig(c)!) : c),
    ),
    /** ρ = λ·E[S]/workers; the arrival rate follows from the model. */
    load: M.loads.element,
    /** Calls in the point, warm-up included. */
    calls: M.calls,
    seed: M.seeds.element,
    /** Fraction of the calls not measured (default 0.1). */
    warmupFraction: M.warmupFraction,
    /** The service model the load refers to: any subset of its fields over DEFAULT_MODEL. */
    model: M.model,
    /**
     * The dilated clock's factor k (model/time-scale.ts; default 1): config, model and the self-check's
     * thresholds are given in model time, and the point runs with every duration × k and every rate ÷ k.
     */
    timeScale: z
      .number()
      .min(1, 'must be ≥ 1 (1 = the real clock undilated; 5 = every duration × 5)')
      .max(MAX_TIME_SCALE, `must be ≤ ${MAX_TIME_SCALE}`)
      .optional(),
    /** Run id and point slug naming the Redis keys; required with Redis. */
    run: z.string().min(1, 'must be a run id').optional(),
    slug: z.string().min(1, 'must be a point slug').optional(),
    /**
     * This process is client `client` of `clients` (default 0 of 1): it sends only the calls i with
     * i mod clients = client, through its own pipeline (its own budget and limit); the others send the rest.
     */
    client: z.number().int('must be a whole number').min(0, 'must be ≥ 0').optional(),
    clients: M.clients.unwrap().element.optional(),
    /**
     * Cap on attempts in flight (default 20 000, at most the open-file limit less 256 shared by the clients:
     * loadgen/loadgen-options.ts); reaching it stops the point as collapsed.
     */
    maxInflight: z.number().int('must be a whole number ≥ 1').min(1, 'must be a whole number ≥ 1').optional(),
    /** Cap on the point's wall time, s (default: schedule length × 3 + 30). */
    maxSeconds: positive.optional(),
    /** Send-lag p99 above this makes the point invalid, model ms (default 1; k wall-clock ms at time scale k). */
    sendLagThresholdMs: positive.optional(),
    /** Parse the server's reply to report client overhead (default false). */
    serverTiming: z.boolean().optional(),
    /** Allow targets outside 127.0.0.0/8, ::1, localhost and the lab's 198.18.0.0/15 (default false). */
    allowAnyTarget: z.boolean().optional(),
    /** Work route of the target with any query (default `/work`); call=N&attempt=K are added. */
    path: z.string().optional(),
    /** Warm-up before t0: calls through the pipeline to /health (default 2 000; 0 = none). */
    warmRequests: count(1_000_000).optional(),
    /**
     * GET /clock exchanges per clock-offset measurement, before the warm-up and after the last call (default
     * 32; 0 = no measurement, for a target without /clock). A failed one makes the point invalid.
     */
    clockSamples: count(1000).optional(),
    /** One clock-offset measurement ends within this, ms (default 2 000). */
    clockTimeoutMs: positive.optional(),
    /** |offset at the end − offset at the start| above this plus both uncertainties makes the point invalid, model ms (default 1). */
    clockDriftMs: z.number().min(0, 'must be a number ≥ 0').optional(),
  })
  .strict();

/** The point spec's schema: its fields, then what only the fields together can say. */
const pointSpecSchema = fields.superRefine((s, ctx) => {
  const issue = (path: string, message: string) =>
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
  const clients = s.clients ?? 1;
  if (s.client !== undefined && s.client >= clients) {
    issue(
      'client',
      `must be a whole number in 0..${clients - 1} (this process's index among ${clients} clients)`,
    );
  }
  if (s.transport === 'grpc' && s.grpcTarget === undefined) {
    issue(
      'grpcTarget',
      "is required with transport grpc: the target's gRPC listener HOST:PORT (see its listening line)",
    );
  }
  if (s.transport === 'grpc' && (s.replicaTargets?.length ?? 0) > 0) {
    issue(
      'replicaTargets',
      'work over HTTP/1.1 only: give the replicas without transport grpc, or one gRPC target',
    );
  }
  if (hedgerOf(s.config) === 'grpc-js' && s.transport !== 'grpc') {
    issue(
      'config',
      `${JSON.stringify(s.config.name)} is hedged by grpc-js (grpcHedging), which needs gRPC; set transport grpc`,
    );
  }
  // A tied point's copies cancel each other from their servers (docs/replicas.md, "Tied requests"): each
  // copy's request names the replicas of its siblings, which only HTTP/1.1 carries and the balancer must allow.
  const copies = peerCancelCopies(s.config);
  if (copies > 0) {
    const name = JSON.stringify(s.config.name);
    const R = 1 + (s.replicaTargets?.length ?? 0);
    if (s.transport === 'grpc') {
      issue(
        'transport',
        `${name} ties its copies, which cancel each other over HTTP/1.1 only (each copy's GET /work names its siblings' replicas, the target's POST /peer-cancel removes them); use transport http1`,
      );
    } else if (R < copies) {
      issue(
        'replicaTargets',
        `${name} ties ${copies} copies on distinct replicas and the point has ${R}; give at least ${copies - 1} replica target${copies === 2 ? '' : 's'} after the target`,
      );
    } else {
      if (s.hedgeTo === 'any') {
        issue(
          'hedgeTo',
          `${name} ties its copies, which always go to distinct replicas; drop hedgeTo (or give "other")`,
        );
      }
      const why = tiedPeersIssue(s.config, s.balancer ?? 'random', R);
      if (why !== null) issue('balancer', why);
    }
  }
});

/** The spec as the load generator reads it (config resolved to its object). */
export type PointSpec = z.output<typeof pointSpecSchema>;
/** One field of the spec. */
export type PointSpecField = keyof PointSpec;
/** Every field of the spec, in schema order. */
export const POINT_SPEC_FIELDS: readonly PointSpecField[] = fields.keyof().options;

/** Names a field in a message: the field itself, or e.g. its command-line flag. */
type FieldLabel = (field: string) => string;

/** Validates a value as a spec; the issues name each bad field (through `label`) and the fix. */
export function checkPointSpec(
  value: unknown,
  label: FieldLabel = (f) => f,
): { ok: true; spec: PointSpec } | { ok: false; issues: string[] } {
  const r = pointSpecSchema.safeParse(value);
  if (!r.success) return { ok: false, issues: r.error.issues.map((i) => issueLine(i, value, label)) };
  // The model's checks across its fields (stragglers' range, a mean that gives a rate), as a matrix has them.
  const issues = modelIssues({ ...DEFAULT_MODEL, ...r.data.model }, (path) => where(path, label));
  return issues.length === 0 ? { ok: true, spec: r.data } : { ok: false, issues };
}

/** The spec as one line of JSON: what the orchestrator passes to `hedgebench loadgen --spec`. */
export function pointSpecJson(spec: PointSpec): string {
  return JSON.stringify(spec);
}

/** Reads `--spec` text; throws PointSpecError (HB_POINT_SPEC_INVALID) naming every bad field. */
export function parsePointSpec(text: string): PointSpec {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new PointSpecError(
      `the point spec is not JSON (${(err as Error).message}); pass one JSON object, quoted as one argument`,
      [],
      { cause: err },
    );
  }
  const r = checkPointSpec(value);
  if (!r.ok) throw new PointSpecError(`invalid point spec:\n  - ${r.issues.join('\n  - ')}`, r.issues);
  return r.spec;
}

// `field = value is invalid: why` for a bad value, `field: why` for a missing or composite one.
function issueLine(i: z.ZodIssue, value: unknown, label: FieldLabel): string {
  const at = where(i.path, label);
  if (i.code === 'unrecognized_keys') {
    return `${at}: unknown field(s) ${i.keys.map((k) => JSON.stringify(k)).join(', ')}; remove them or check the spelling`;
  }
  const got = i.path.reduce<unknown>((v, p) => (v as Record<string | number, unknown> | null)?.[p], value);
  if (got === undefined && i.code === 'invalid_type') return `${at}: is required (${i.expected})`;
  if (got === undefined || typeof got === 'object') return `${at}: ${i.message}`;
  // zod's own wording ("Expected number, received string") only where the schema gives none.
  const why =
    i.code === 'invalid_type' && i.message.startsWith('Expected')
      ? `must be ${i.expected}, got ${i.received}`
      : i.message;
  return `${at} = ${JSON.stringify(got)} is invalid: ${why}`;
}

function where(path: (string | number)[], label: FieldLabel): string {
  const [head, ...rest] = path;
  return head === undefined ? '(top level)' : `${label(String(head))}${rest.map((p) => `.${p}`).join('')}`;
}
