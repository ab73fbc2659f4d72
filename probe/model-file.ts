// Reads a model.json (the matrix `model` shape a probe writes) for `hedgebench recommend`, refusing a
// file that is missing, not JSON, or not a complete model, with the field and the fix.

import { readFileSync } from 'node:fs';
import { type ModelParams, modelIssues, modelSchema } from '../model/index.ts';
import { ProbeOptionsError } from './errors.ts';

// The matrix's model schema (so model.json's optional fields — the probe's errorProb and errorMs, a pushback
// rule a user adds — are read with the matrix's ranges), with the service's six fields required: a probe
// always writes them, and recommend simulates nothing without them.
const fileSchema = modelSchema.required({
  workers: true,
  medianMs: true,
  sigma: true,
  stragglerProb: true,
  stragglerMinMs: true,
  stragglerMaxMs: true,
});

/** Parses and checks a model.json file. */
export function readModelFile(path: string): ModelParams {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ProbeOptionsError(
      `--model ${path} cannot be read (${(err as Error).message}); run \`hedgebench probe --target URL --out DIR\` first`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ProbeOptionsError(`--model ${path} is not JSON (${(err as Error).message})`);
  }
  const r = fileSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ProbeOptionsError(
      `--model ${path}: ${issue.path.join('.') || 'model'} ${issue.message}; the file needs workers, medianMs, sigma, stragglerProb, stragglerMinMs, stragglerMaxMs`,
    );
  }
  const model = r.data as ModelParams;
  const [problem] = modelIssues(model, (p) => p.join('.'));
  if (problem !== undefined) throw new ProbeOptionsError(`--model ${path}: ${problem}`);
  return model;
}
