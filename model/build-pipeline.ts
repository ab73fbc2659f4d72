// Maps a model HedgeConfig (a named reference configuration or a user's JSON) to a library Pipeline.
import {
  type Clock,
  ConfigError,
  type Pipeline,
  pipeline,
  resolveHedgeOptions,
  resolveLimitOptions,
} from '../library/index.ts';
import type { HedgeConfig } from './hedge-config.ts';

const KNOWN = ['name', 'hedge', 'adaptiveLimit'];

/**
 * Builds the pipeline a configuration describes: no `hedge` = plain call; `hedge` = a HedgePolicy;
 * `adaptiveLimit` = a Gradient2 limit inside the hedge, so every attempt takes a permit.
 * Invalid options throw the library's ConfigError (HB_CONFIG_INVALID) naming `config "<name>".<field>`.
 */
export function buildPipeline(config: HedgeConfig, clock: Clock): Pipeline {
  if (typeof config !== 'object' || config === null) {
    throw new ConfigError('config', config, 'must be an object { name, hedge?, adaptiveLimit? }');
  }
  if (typeof config.name !== 'string' || config.name.length === 0) {
    throw new ConfigError('config.name', config.name, 'must be a non-empty string');
  }
  const prefix = `config ${JSON.stringify(config.name)}`;
  for (const key of Object.keys(config)) {
    if (!KNOWN.includes(key)) {
      throw new ConfigError(
        `${prefix}.${key}`,
        (config as unknown as Record<string, unknown>)[key],
        `unknown option; known: ${KNOWN.join(', ')}`,
      );
    }
  }
  // Validate with the config's name in the field, before the policies validate again with their own.
  if (config.hedge !== undefined) resolveHedgeOptions(config.hedge, `${prefix}.hedge`);
  if (config.adaptiveLimit !== undefined)
    resolveLimitOptions(config.adaptiveLimit, `${prefix}.adaptiveLimit`);
  const p = pipeline(clock);
  if (config.hedge !== undefined) p.hedge({ ...config.hedge });
  if (config.adaptiveLimit !== undefined) p.adaptiveLimit({ ...config.adaptiveLimit });
  return p;
}
