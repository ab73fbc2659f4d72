// Maps a model HedgeConfig (a named reference configuration or a user's JSON) to a library Pipeline.
import {
  A6HedgePolicy,
  type Clock,
  ConfigError,
  checkA6Hedge,
  checkA6Throttle,
  type Pipeline,
  pipeline,
  resolveHedgeOptions,
  resolveLimitOptions,
} from '../library/index.ts';
import { grpcStatusCode } from './grpc-hedging.ts';
import type { HedgeConfig, HedgeOptions } from './hedge-config.ts';
import { resolveTied, tiedHedgeOptions } from './tied.ts';

const KNOWN = ['name', 'hedge', 'adaptiveLimit', 'grpcHedging', 'retryThrottling', 'tied'];

/**
 * Builds the pipeline a configuration describes: no `hedge` = plain call; `hedge` = a HedgePolicy;
 * `tied` = the HedgePolicy of its copies (model/tied.ts; the transport ties them); `adaptiveLimit` = a
 * Gradient2 limit inside the hedge, so every attempt takes a permit.
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
  if (config.grpcHedging !== undefined || config.retryThrottling !== undefined)
    return a6Pipeline(config, clock, prefix);
  // Validate with the config's name in the field, before the policies validate again with their own.
  if (config.hedge !== undefined) resolveHedgeOptions(config.hedge, `${prefix}.hedge`);
  const hedge = config.tied === undefined ? config.hedge : tiedHedge(config, prefix);
  if (config.adaptiveLimit !== undefined)
    resolveLimitOptions(config.adaptiveLimit, `${prefix}.adaptiveLimit`);
  const p = pipeline(clock);
  if (hedge !== undefined) p.hedge({ ...hedge });
  if (config.adaptiveLimit !== undefined) p.adaptiveLimit({ ...config.adaptiveLimit });
  return p;
}

// A tied configuration's copies are the attempts of one hedge, so a `hedge` beside it would be a second one.
function tiedHedge(config: HedgeConfig, prefix: string): HedgeOptions {
  if (config.hedge !== undefined) {
    throw new ConfigError(
      `${prefix}.hedge`,
      config.hedge,
      'cannot sit beside tied: a tied configuration sends its copies as its hedges (copy k+1 gapMs after copy k)',
      'Drop hedge, or tied, or make them two configurations.',
    );
  }
  resolveTied(config.tied!, `${prefix}.tied`);
  const hedge = tiedHedgeOptions(config.tied!);
  resolveHedgeOptions(hedge, `${prefix}.tied`);
  return hedge;
}

// grpc-js hedges such a configuration; the library's A6HedgePolicy predicts it. No hedgebench policy may
// sit beside it: two hedgers in one configuration would make it unclear whose hedges a point measures.
function a6Pipeline(config: HedgeConfig, clock: Clock, prefix: string): Pipeline {
  const g = config.grpcHedging;
  if (g === undefined) {
    throw new ConfigError(
      `${prefix}.retryThrottling`,
      config.retryThrottling,
      'applies to gRPC hedging only; add grpcHedging { maxAttempts, hedgingDelayMs } or drop retryThrottling',
    );
  }
  if (config.tied !== undefined) {
    throw new ConfigError(
      `${prefix}.tied`,
      config.tied,
      "cannot sit beside grpcHedging: grpc-js hedges this configuration and cancels a hedge's losers only when a response arrives, so no copy can be tied",
      'Drop tied, or grpcHedging to let hedgebench send the copies.',
    );
  }
  for (const other of ['hedge', 'adaptiveLimit'] as const) {
    if (config[other] !== undefined) {
      throw new ConfigError(
        `${prefix}.${other}`,
        config[other],
        `cannot sit beside grpcHedging: grpc-js hedges this configuration, so no hedgebench policy may; drop ${other}, or grpcHedging to let hedgebench hedge`,
      );
    }
  }
  const codes = (g.nonFatalStatusCodes ?? []).map((c) => {
    const n = grpcStatusCode(c);
    if (n === undefined || n === 0) {
      throw new ConfigError(
        `${prefix}.grpcHedging.nonFatalStatusCodes`,
        c,
        'must be gRPC status codes, as numbers 1..16 or names such as "UNAVAILABLE"',
      );
    }
    return n;
  });
  const options = {
    maxAttempts: g.maxAttempts,
    hedgingDelayMs: g.hedgingDelayMs,
    nonFatalStatusCodes: codes,
    statusOf: grpcStatusOf,
    ...(g.throttleHedges === undefined ? {} : { throttleHedges: g.throttleHedges }),
    ...(config.retryThrottling === undefined ? {} : { retryThrottling: { ...config.retryThrottling } }),
  };
  checkA6Hedge(options, `${prefix}.grpcHedging`);
  if (config.retryThrottling !== undefined)
    checkA6Throttle(config.retryThrottling, `${prefix}.retryThrottling`);
  return pipeline(clock).use(new A6HedgePolicy({ clock, ...options }));
}

// A failure's gRPC status: `grpcCode` (the model's failure, UNAVAILABLE, as the target answers it; the load
// generator's gRPC failures), else a numeric `code` (the library's default).
function grpcStatusOf(e: unknown): number | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { grpcCode, code } = e as { grpcCode?: unknown; code?: unknown };
  return typeof grpcCode === 'number' ? grpcCode : typeof code === 'number' ? code : undefined;
}
