// The model part's public surface: the service model shared by the simulator and the target server.

export { ArrivalSchedule, arrivalRatePerMs } from './arrivals.ts';
export { buildPipeline } from './build-pipeline.ts';
export {
  DIMENSIONS,
  type DimensionColumn,
  type DimensionSpec,
  dimsKeySuffix,
  hasDims,
  labelWithDims,
  type PointDims,
  pointClients,
} from './dimensions.ts';
export { MatrixInvalidError } from './errors.ts';
export { type HedgeConfig, REFERENCE_CONFIGS, referenceConfig } from './hedge-config.ts';
export {
  calibrationPoint,
  expandMatrix,
  FIDELITY_DEFAULTS,
  type FidelityThresholds,
  type FieldLabels,
  type Matrix,
  overrideMatrix,
  parseMatrix,
} from './matrix.ts';
export { DEFAULT_MODEL, type ModelParams } from './params.ts';
export {
  type Cancellation,
  formatLoad,
  type Point,
  type PointKeyFields,
  pointKey,
  pointSlug,
  warmupCalls,
} from './point.ts';
export { uniform, uniformOpen } from './rng.ts';
export { meanServiceMs, serviceTimeMs } from './service-time.ts';
export {
  type AttemptEnd,
  type PoolJob,
  type PoolOptions,
  type PoolStats,
  type PoolTicket,
  WorkerPool,
} from './worker-pool.ts';
