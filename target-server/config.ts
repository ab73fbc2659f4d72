// What the target server is set to (workers, model, seed, cancellation, the point being recorded), how a
// PUT /config body (contract/target-config.ts) is checked and applied, and the checks of /work's query.

import { type TargetConfigPatch, targetConfigSchema } from '../contract/index.ts';
import {
  type Cancellation,
  DEFAULT_MODEL,
  type ModelParams,
  type ReplicaSetup,
  SINGLE_REPLICA,
} from '../model/index.ts';
import { isLocalTargetHost } from '../runtime/index.ts';
import { BadParameterError } from './errors.ts';

/** The point whose attempts are recorded: they go to redisKeys(run, slug).attempts. */
export interface RecordTarget {
  run: string;
  slug: string;
}

/** The server's current settings (GET /stats shows them; PUT /config changes them between points). */
export interface ServerConfig {
  workers: number;
  model: ModelParams;
  seed: number;
  cancellation: Cancellation;
  record: RecordTarget | null;
  /** This server's replica index behind the client's balancer (0 when it is the only one). */
  replica: number;
  /** How many replicas the client balances across; above 1 each attempt record says which one served it. */
  replicas: number;
  /** Probability that a call's attempts share attempt 1's straggler draw (model/replicas.ts); 0 = independent. */
  correlation: number;
  /** Factor on the service times when this server is the slow replica (replica 0); 1 = none. */
  slowReplica: number;
  /** The dilated clock's factor k: `model` is in model time, and the workers hold each attempt k times as long. */
  timeScale: number;
  /**
   * Model ms to wait between releasing a worker and answering (a perturbation of the verdict's self-test:
   * a harness-like delay); 0 = answer at once.
   */
  responseDelayMs: number;
  /**
   * Tied requests: each call's copies (this many, on distinct replicas) cancel each other when one starts; 0 =
   * the point is not tied, and /work takes no `peers`.
   */
  tiedCopies: number;
  /** Every replica's base URL (replica index → http://HOST:PORT), where this server sends its peer cancels. */
  peers: string[];
}

/** Highest call index /work accepts: the model's generator takes call indices below 2^32. */
export const MAX_CALL = 0xffff_ffff;
/** Highest attempt number /work accepts (attempts are 1-based; hedging uses a handful). */
export const MAX_ATTEMPT = 1000;

/** The defaults: the reference model (16 workers), seed 1, cancellation ignored, nothing recorded. */
export function defaultConfig(): ServerConfig {
  return {
    workers: DEFAULT_MODEL.workers,
    model: { ...DEFAULT_MODEL },
    seed: 1,
    cancellation: 'ignore',
    record: null,
    replica: 0,
    replicas: 1,
    correlation: 0,
    slowReplica: 1,
    timeScale: 1,
    responseDelayMs: 0,
    tiedCopies: 0,
    peers: [],
  };
}

/** A parsed PUT /config body (contract/target-config.ts owns its schema). */
export type ConfigPatch = TargetConfigPatch;

/** Validates a PUT /config body; throws BadParameterError naming the first bad field. */
export function parseConfigPatch(body: unknown, source = 'PUT /config'): ConfigPatch {
  const r = targetConfigSchema.safeParse(body ?? {});
  if (!r.success) {
    const i = r.error.issues[0]!;
    const where = i.path.join('.');
    if (i.code === 'unrecognized_keys') {
      const field = where ? `${where}.${i.keys[0]}` : i.keys[0]!;
      throw new BadParameterError(
        field,
        `${source}: unknown field ${field}; fields: workers, model, seed, cancellation, run, slug, replica, replicas, correlation, slowReplica, timeScale, responseDelayMs, tiedCopies, peers; model.{medianMs, sigma, stragglerProb, stragglerMinMs, stragglerMaxMs, service, workers, errorProb, errorMs, errorCorrelation, pushback}`,
      );
    }
    const field = where || 'body';
    throw new BadParameterError(field, `${source}: ${field} ${i.message}`);
  }
  const p = r.data;
  if ((p.run === undefined) !== (p.slug === undefined) || (p.run === null) !== (p.slug === null)) {
    throw new BadParameterError('run', `${source}: give run and slug together (both strings, or both null)`);
  }
  return p;
}

/**
 * The configuration after applying `patch` to `current`: omitted top-level fields keep their values;
 * a given `model` is taken over DEFAULT_MODEL; top-level `workers` wins over `model.workers`.
 */
export function applyPatch(current: ServerConfig, patch: ConfigPatch): ServerConfig {
  // A given `model` is complete over DEFAULT_MODEL, not over the previous point's model: an omitted field
  // (notably `service`, whose absence means "the mixture") never leaks from one point into the next.
  const model: ModelParams = patch.model === undefined ? { ...current.model } : { ...DEFAULT_MODEL };
  const m = patch.model ?? {};
  for (const k of [
    'medianMs',
    'sigma',
    'stragglerProb',
    'stragglerMinMs',
    'stragglerMaxMs',
    'errorProb',
    'errorMs',
    'errorCorrelation',
  ] as const) {
    if (m[k] !== undefined) model[k] = m[k];
  }
  if (m.pushback !== undefined) model.pushback = { ...m.pushback };
  if (m.service === null) delete model.service;
  else if (m.service !== undefined) model.service = m.service;
  const workers = patch.workers ?? m.workers ?? current.workers;
  model.workers = workers;
  if (model.stragglerMinMs > model.stragglerMaxMs) {
    throw new BadParameterError(
      'model.stragglerMinMs',
      `model.stragglerMinMs (${model.stragglerMinMs}) must be ≤ model.stragglerMaxMs (${model.stragglerMaxMs})`,
    );
  }
  const replica = patch.replica ?? current.replica;
  const replicas = patch.replicas ?? current.replicas;
  if (replicas > 1 && replica >= replicas) {
    throw new BadParameterError(
      'replica',
      `replica ${replica} is not one of replicas 0..${replicas - 1}; give replica below replicas (${replicas})`,
    );
  }
  const tiedCopies = patch.tiedCopies ?? current.tiedCopies;
  const peers = patch.peers === undefined ? current.peers : checkPeers(patch.peers);
  if (tiedCopies === 1) {
    throw new BadParameterError(
      'tiedCopies',
      'tiedCopies 1 is a plain call: give 0 (not tied) or 2..10 copies',
    );
  }
  if (tiedCopies > 0 && (tiedCopies > replicas || peers.length !== replicas)) {
    throw new BadParameterError(
      tiedCopies > replicas ? 'tiedCopies' : 'peers',
      `tiedCopies ${tiedCopies} needs as many replicas at least (replicas ${replicas}) and peers listing every replica's URL, replica 0 first (${peers.length} given); give replicas ≥ tiedCopies and ${replicas} peers`,
    );
  }
  let record = current.record;
  if (patch.run === null) record = null;
  else if (patch.run !== undefined && patch.slug) record = { run: patch.run, slug: patch.slug };
  return {
    workers,
    model,
    seed: patch.seed ?? current.seed,
    cancellation: patch.cancellation ?? current.cancellation,
    record,
    replica,
    replicas,
    correlation: patch.correlation ?? current.correlation,
    slowReplica: patch.slowReplica ?? current.slowReplica,
    timeScale: patch.timeScale ?? current.timeScale,
    responseDelayMs: patch.responseDelayMs ?? current.responseDelayMs,
    tiedCopies,
    peers,
  };
}

// Peer cancels go to other target servers only: http:// on loopback or the lab's 198.18.0.0/15, as any load.
function checkPeers(peers: readonly string[]): string[] {
  return peers.map((p, i) => {
    let u: URL | null = null;
    try {
      u = new URL(p);
    } catch {
      u = null;
    }
    if (u === null || u.protocol !== 'http:' || u.port === '' || u.pathname !== '/' || u.search !== '') {
      throw new BadParameterError(
        `peers.${i}`,
        `peers.${i} ${JSON.stringify(p)} must be a replica's base URL http://HOST:PORT (no path), e.g. http://127.0.0.1:4100`,
      );
    }
    if (!isLocalTargetHost(u.hostname)) {
      throw new BadParameterError(
        `peers.${i}`,
        `peers.${i} ${JSON.stringify(p)} is outside loopback (127.0.0.0/8) and the lab (198.18.0.0/15): a target server sends peer cancels to hedgebench's own replicas only`,
      );
    }
    return u.origin;
  });
}

/**
 * What of the point's replica setup changes this server's service times (model/replicas.ts intendedHoldMs):
 * shared stragglers and a slow node; with neither, today's draw.
 */
export function serviceSetupOf(cfg: ServerConfig): ReplicaSetup {
  return { ...SINGLE_REPLICA, correlation: cfg.correlation, slowReplica: cfg.slowReplica };
}

/** A /work query parameter as a whole number in [min, max]; BadParameterError naming it otherwise. */
export function parseIndex(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value)) {
    const got = value === undefined ? 'nothing' : JSON.stringify(value)?.slice(0, 40);
    throw new BadParameterError(
      name,
      `query parameter ${name} must be a whole number in [${min}, ${max}], got ${got}; e.g. /work?call=0&attempt=1`,
    );
  }
  const n = Number(value);
  if (n < min || n > max) {
    throw new BadParameterError(name, `query parameter ${name} must be in [${min}, ${max}], got ${value}`);
  }
  return n;
}
