// Reads a model.json (the matrix `model` shape a probe writes) for `hedgebench recommend`, refusing a
// file that is missing, not JSON, or not a complete model, with the field and the fix.

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ModelParams } from '../model/index.ts';
import { ProbeOptionsError } from './errors.ts';

const modelSchema = z
  .object({
    workers: z.number().int().min(1).max(4096),
    medianMs: z.number().positive().max(60_000),
    sigma: z.number().min(0).max(5),
    stragglerProb: z.number().min(0).max(1),
    stragglerMinMs: z.number().min(0).max(60_000),
    stragglerMaxMs: z.number().min(0).max(60_000),
  })
  .strict()
  .refine((m) => m.stragglerMinMs <= m.stragglerMaxMs, {
    message: 'stragglerMinMs must be ≤ stragglerMaxMs',
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
  const r = modelSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ProbeOptionsError(
      `--model ${path}: ${issue.path.join('.') || 'model'} ${issue.message}; the file needs workers, medianMs, sigma, stragglerProb, stragglerMinMs, stragglerMaxMs`,
    );
  }
  return r.data;
}
