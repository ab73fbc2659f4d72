// Reads the command line's --config (a reference configuration's name or a JSON HedgeConfig) and --model.

import { type HedgeConfig, type ModelParams, REFERENCE_CONFIGS, referenceConfig } from '../model/index.ts';
import { LoadgenConfigError } from './errors.ts';

/** A reference configuration by name, or a HedgeConfig written as JSON (fields are validated later). */
export function parseConfigArg(text: string): HedgeConfig {
  const ref = referenceConfig(text);
  if (ref !== undefined) return structuredClone(ref);
  if (!text.trimStart().startsWith('{')) {
    throw new LoadgenConfigError(
      `--config ${JSON.stringify(text)} is neither a reference configuration (${REFERENCE_CONFIGS.map((c) => JSON.stringify(c.name)).join(', ')}) nor a JSON object { "name": …, "hedge"?: {…}, "adaptiveLimit"?: {…} }`,
    );
  }
  const value = parseJson('--config', text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LoadgenConfigError(
      '--config must be a JSON object { "name": …, "hedge"?: {…}, "adaptiveLimit"?: {…} }',
    );
  }
  return value as HedgeConfig;
}

/** --model: a JSON object of ModelParams fields (any subset; the rest are the defaults). */
export function parseModelArg(text: string | undefined): Partial<ModelParams> | undefined {
  if (text === undefined) return undefined;
  const value = parseJson('--model', text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LoadgenConfigError(
      '--model must be a JSON object of model parameters, e.g. {"workers":16,"medianMs":10}',
    );
  }
  return value as Partial<ModelParams>;
}

function parseJson(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new LoadgenConfigError(`${flag} is not valid JSON (${(err as Error).message}); check the quoting`, {
      cause: err,
    });
  }
}
