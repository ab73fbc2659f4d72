// The model part's public surface: the service model shared by the simulator and the target server.

export { ArrivalSchedule, arrivalRatePerMs } from './arrivals.ts';
export {
  attemptFails,
  countsHedgesOnError,
  DEFAULT_ERROR_MS,
  hasFailures,
  meanHoldMs,
  pushbackMsAt,
} from './attempt-failure.ts';
export { buildPipeline } from './build-pipeline.ts';
export {
  calibrationCandidates,
  calibrationGroup,
  calibrationPoint,
  calibrationPoints,
  transportOf,
} from './calibration-point.ts';
export { SWEEP_PERCENTILE_DEFAULTS } from './delay-sweep.ts';
export {
  clientOfCall,
  DIMENSIONS,
  type DimensionColumn,
  labelWithDims,
  type PointDims,
  pointClients,
} from './dimensions.ts';
export { errorProbsNotes, pointModel } from './error-probs.ts';
export {
  MatrixInvalidError,
  ModelFailureError,
  TransportInvalidError,
  TransportSamplesError,
} from './errors.ts';
export { FIDELITY_DEFAULTS, type FidelityThresholds } from './fidelity-thresholds.ts';
export type { ForeignTarget } from './foreign-target.ts';
export { grpcServiceConfig } from './grpc-hedging.ts';
export type { Transport } from './grpc-hedging-schema.ts';
export {
  type HedgeConfig,
  hedgerOf,
  honoursPushback,
  REFERENCE_CONFIGS,
  referenceConfig,
} from './hedge-config.ts';
export {
  isRelativeMargin,
  LATENCY_MARGIN_FLOOR_MS,
  MARGIN_CAPS,
  type MarginMetric,
  type Margins,
  resolveMargins,
} from './margins.ts';
export { expandMatrix } from './matrix-expand.ts';
export { type MatrixOverrides, overrideMatrix } from './matrix-overrides.ts';
export { parseMatrix } from './matrix-parse.ts';
export { FAIL_ON_VERDICTS, type FailOnVerdict, type Matrix, matrixSchema } from './matrix-schema.ts';
export { modelIssues, modelSchema } from './model-schema.ts';
export { DEFAULT_MODEL, type ModelParams, type PushbackRule } from './params.ts';
export {
  type Perturbation,
  parsePerturbation,
  perturbationText,
  perturbedCancellation,
  perturbedConfig,
  perturbedModel,
} from './perturb.ts';
export { type Cancellation, formatLoad, type Point, pointKey, pointSlug, warmupCalls } from './point.ts';
export { replicaNotes } from './replica-dims.ts';
export {
  addBalancer,
  balancerDraw,
  intendedHoldMs,
  type ReplicaSetup,
  replicaOf,
  replicaServiceMs,
  replicaSetupOf,
  SINGLE_REPLICA,
  SLOW_REPLICA,
} from './replicas.ts';
export { uniform, uniformOpen } from './rng.ts';
export { MAX_FLAG_SEEDS, parseSeedList, SEED_LIST_FLAG_TEXT } from './seed-list.ts';
export { correlatedServiceTimeMs, meanServiceMs, serviceTimeMs } from './service-time.ts';
export {
  checkTiedReplicas,
  peerCancelCopies,
  resolveTied,
  type TiedOptions,
  tiedHedgeOptions,
} from './tied.ts';
export { type TiedPeerSetup, tiedPeers, tiedPeersIssue, tiedPeersKnown } from './tied-peers.ts';
export {
  dilateConfig,
  dilateModel,
  dilatePoint,
  dilateTransport,
  MAX_TIME_SCALE,
  modelMs,
  parseTimeScale,
  TIME_SCALE_FLAG_TEXT,
  TIME_SCALE_LADDER,
  timeScaleOf,
  wallMs,
} from './time-scale.ts';
export {
  constantTransport,
  type DelayDistribution,
  describeTransport,
  empiricalDelay,
  holdOvershootMs,
  peerCancelDelayMs,
  replayedReplica,
  type TransportParams,
  transportDelayMs,
  validateTransport,
} from './transport-delays.ts';
export { peerReplayKey, replayKey, type TransportReplay } from './transport-replay.ts';
export {
  type AttemptEnd,
  type PoolJob,
  type PoolOptions,
  type PoolStats,
  type PoolTicket,
  WorkerPool,
} from './worker-pool.ts';
