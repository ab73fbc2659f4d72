// Moves a finished point out of Redis: streams → raw/<slug>.*.csv (temp file, fsync, rename), the status
// hash → raw/<slug>.status.json, and only once all of that is on disk, DEL of the point's keys. A record
// that is in a stream twice (a batch retried across a Redis restart) is written once.

import type { Redis } from 'ioredis';
import {
  attemptFields,
  callFields,
  formatStatusJson,
  parseStatusHash,
  pointRedisKeys,
  redisKeys,
} from '../../contract/index.ts';
import { AtomicWriter, writeFileAtomicSync } from '../../runtime/index.ts';
import { mergeClientStatuses } from './clients-status.ts';
import { SeenRecords } from './seen-records.ts';

/** Entries fetched per XRANGE: big enough to amortise the round trip, small enough to bound memory. */
const CHUNK = 5_000;

/** What was moved to disk. */
export interface DrainResult {
  /** Distinct call records written (one per call). */
  calls: number;
  /** Distinct attempt records written (one per call and attempt). */
  attempts: number;
  /** Records found twice in a stream and written once. */
  duplicates: { calls: number; attempts: number };
  /** The status hash with `summary` parsed (null when the point never wrote one). */
  status: Record<string, unknown> | null;
}

/**
 * Copies a stream's `r` values, in order, under `header`, into `path` (atomic), skipping a line whose key
 * (call; with `withAttempt`, call and attempt) an earlier line had. Returns lines written and skipped.
 */
async function drainStream(
  redis: Redis,
  key: string,
  path: string,
  header: string,
  withAttempt = false,
): Promise<{ lines: number; duplicates: number }> {
  const out = await AtomicWriter.open(path);
  const seen = new SeenRecords();
  let n = 0;
  let duplicates = 0;
  try {
    await out.write(`${header}\n`);
    let start = '-';
    for (;;) {
      const entries = await redis.xrange(key, start, '+', 'COUNT', CHUNK);
      if (entries.length === 0) break;
      let text = '';
      for (const [, fields] of entries) {
        // One field `r` per entry (contract/records.ts); look it up rather than trust its position.
        for (let i = 0; i + 1 < fields.length; i += 2) {
          if (fields[i] === 'r') {
            const line = fields[i + 1]!;
            if (seen.addLine(line, withAttempt)) {
              text += `${line}\n`;
              n++;
            } else {
              duplicates++;
            }
            break;
          }
        }
      }
      await out.write(text);
      if (entries.length < CHUNK) break;
      start = `(${entries[entries.length - 1][0]}`;
    }
    await out.commit();
    return { lines: n, duplicates };
  } catch (err) {
    await out.abort();
    throw err;
  }
}

/** Where a point's data goes; `attempts` null = no server records (a foreign service keeps none). */
interface DrainTarget {
  calls: string;
  attempts: string | null;
  status: string;
}

/**
 * Drains one point to disk, then deletes its keys. Nothing is deleted unless every file was written.
 * `extra` fields (e.g. the target's recorder counters) are added to status.json. A point of `clients` load
 * generators has one status hash each: status.json holds their merge and, under `clients`, each one's own.
 * A point with several `replicas` has attempt records that say which replica served each (contract/records.ts);
 * one that counts hedges on error (`hedgedOnError`, model countsHedgesOnError) has call records that say how many;
 * a tied one (`tied`: copies that cancel each other on start) attempt records that say what its peer cancels did.
 */
export async function drainPoint(
  redis: Redis,
  run: string,
  slug: string,
  to: DrainTarget,
  extra: Record<string, unknown> = {},
  clients = 1,
  replicas = 1,
  hedgedOnError = false,
  tied = false,
): Promise<DrainResult> {
  const keys = redisKeys(run, slug);
  const calls = await drainStream(redis, keys.calls, to.calls, callFields(hedgedOnError).join(','));
  const header = attemptFields(replicas, tied).join(',');
  const attempts =
    to.attempts === null
      ? { lines: 0, duplicates: 0 }
      : await drainStream(redis, keys.attempts, to.attempts, header, true);
  const status =
    clients === 1
      ? parseStatusHash(await redis.hgetall(keys.status))
      : mergeClientStatuses(
          await Promise.all(
            Array.from({ length: clients }, async (_, i) =>
              parseStatusHash(await redis.hgetall(keys.clientStatus(i, clients))),
            ),
          ),
        );
  const duplicates = { calls: calls.duplicates, attempts: attempts.duplicates };
  writeFileAtomicSync(
    to.status,
    formatStatusJson({ ...(status ?? {}), ...extra, duplicates_removed: duplicates }),
  );
  await redis.del(...pointRedisKeys(run, slug, clients));
  return { calls: calls.lines, attempts: attempts.lines, duplicates, status };
}

/** True when any key of the point exists (left behind by an interrupted run). */
export async function pointHasKeys(redis: Redis, run: string, slug: string, clients = 1): Promise<boolean> {
  return (await redis.exists(...pointRedisKeys(run, slug, clients))) > 0;
}
