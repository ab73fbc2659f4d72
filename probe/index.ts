// The probe part's public surface: characterise a service hedgebench did not build, fit the model to it,
// and recommend a hedge configuration for it.

export {
  ProbeError,
  ProbeErrorsError,
  ProbeInterruptedError,
  ProbeNoKneeError,
  ProbeOptionsError,
  ProbeTooFastError,
  ProbeTooSlowError,
  ProbeUnreachableError,
} from './errors.ts';
export { fitService, type ServiceFit } from './fit-service.ts';
export { readModelFile } from './model-file.ts';
export type { ProbeOptions } from './options.ts';
export { createProbe } from './probe.ts';
export { probeCommand, recommendCommand } from './probe-command.ts';
export type { Probe, ProbeResult } from './probe-result.ts';
export { erlangC, meanWaitMs } from './queueing.ts';
export {
  type Candidate,
  formatRecommendation,
  type Recommendation,
  type RecommendOptions,
  recommend,
} from './recommend.ts';
export { PROBE_FILES, writePartialProbe, writeProbe } from './write-probe.ts';
