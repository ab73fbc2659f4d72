// The probe part's public surface: characterise a service hedgebench did not build, fit the model to it,
// and recommend a hedge configuration for it.

export { ProbeError, ProbeOptionsError } from './errors.ts';
export { fitService } from './fit-service.ts';
export { readModelFile } from './model-file.ts';
export { createProbe } from './probe.ts';
export { probeCommand, recommendCommand } from './probe-command.ts';
export type { ProbeResult } from './probe-result.ts';
export { erlangC, meanWaitMs } from './queueing.ts';
export { type Candidate, formatRecommendation, recommend } from './recommend.ts';
export { PROBE_FILES, writePartialProbe, writeProbe } from './write-probe.ts';
