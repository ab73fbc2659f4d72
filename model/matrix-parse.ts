// Parsing a matrix: the schema's verdict plus what it cannot check (duplicates, gRPC needing its transport,
// the library's own checks of each configuration), every problem listed at once; then the defaults filled in.

import { ConfigError, ManualClock } from '../library/index.ts';
import { buildPipeline } from './build-pipeline.ts';
import { errorProbsIssues, sweepsFailures } from './error-probs.ts';
import { MatrixInvalidError } from './errors.ts';
import { FIDELITY_DEFAULTS } from './fidelity-thresholds.ts';
import { foreignTargetIssues } from './foreign-target.ts';
import { type HedgeConfig, hedgerOf, referenceConfig } from './hedge-config.ts';
import { type Matrix, type MatrixSpec, matrixSchema } from './matrix-schema.ts';
import { modelIssues } from './model-schema.ts';
import { DEFAULT_MODEL, type ModelParams } from './params.ts';
import { perturbationIssues, perturbationText } from './perturb.ts';
import { formatLoad } from './point.ts';
import { pickReplicaFields, replicaFieldIssues } from './replica-dims.ts';
import { issueText } from './schema-messages.ts';
import { tiedMatrixIssues } from './tied.ts';

/** Default calibration: `no hedge` at load 0.1 for 1000 calls. */
const DEFAULT_CALIBRATION = Object.freeze({ load: 0.1, calls: 1000 });
/** Validates a parsed JSON value; throws MatrixInvalidError listing every bad field (`source` names the file). */
export function parseMatrix(json: unknown, source = 'matrix'): Matrix {
  const at = fieldPath;
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
    ...configs.flatMap((c, i) => tiedMatrixIssues(c, at(['configs', i]), m)),
    ...perturbIssues(m),
    ...errorProbsIssues(m),
    ...configs.flatMap((c, i) => pipelineIssue(c, at(['configs', i]))),
  ];
  const model: ModelParams = { ...DEFAULT_MODEL, ...m.model };
  issues.push(...modelIssues(model, at, sweepsFailures(m)));
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
    ...(m.perturb === undefined ? {} : { perturb: m.perturb.map((p) => ({ ...p })) }),
    ...(m.errorProbs === undefined ? {} : { errorProbs: [...m.errorProbs] }),
    cancellation: [...m.cancellation],
    seeds: [...m.seeds],
    calls: m.calls,
    warmupFraction: m.warmupFraction ?? 0.1,
    model,
    calibration: m.calibration === undefined ? { ...DEFAULT_CALIBRATION } : m.calibration,
    fidelity: { ...FIDELITY_DEFAULTS, ...m.fidelity },
    ...(m.margins === undefined ? {} : { margins: { ...m.margins } }),
    ...(m.failOn === undefined ? {} : { failOn: [...new Set(m.failOn)] }),
    ...(m.target === undefined ? {} : { target: { url: m.target.url } }),
  };
}

// Perturbing is done to hedgebench's own target server: a foreign one cannot be made wrong on purpose.
function perturbIssues(m: MatrixSpec): string[] {
  if (m.perturb === undefined) return [];
  if (m.target !== undefined)
    return [
      "perturb: hedgebench cannot perturb a service it did not deploy (target.url): the perturbations change its own target server; remove perturb, or the target to test the verdict on hedgebench's own server",
    ];
  const workers = m.model?.workers ?? DEFAULT_MODEL.workers;
  return [
    ...m.perturb.flatMap((p, i) => perturbationIssues(p, workers, `perturb[${i}]`)),
    ...duplicates(m.perturb.map((p) => perturbationText(p))).map(
      (t) => `perturb: ${t === '' ? '{} (none)' : t} appears twice; list each perturbation once`,
    ),
  ];
}

function fieldPath(path: (string | number)[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
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
