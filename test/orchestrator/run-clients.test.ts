// `clients: K` on the real clock, end to end on this machine: a point with K = 2 is measured by two
// load-generator processes, each sending exactly its calls (index ≡ client mod 2) through its own pipeline;
// the calls file holds every measured call once, each client's self-check is recorded, the simulated rows
// are those of `hedgebench simulate`, and an interrupted point stops both generators.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  attribute,
  clockOffsetOf,
  readAttemptsCsv,
  readCallsCsv,
  readStatusJson,
  residualMs,
} from '../../analysis/index.ts';
import {
  type Manifest,
  OUTCOME_CODE,
  parsePointsCsv,
  percentileOf,
  redisKeys,
} from '../../contract/index.ts';
import { parseMatrix, warmupCalls } from '../../model/index.ts';
import { createRun } from '../../orchestrator/index.ts';
import { simulateMatrix } from '../../simulator/index.ts';
import { localRunSuite, processesMentioning, QUIET, until } from './fixture.ts';

const suite = localRunSuite('hb-clients-');

/** One client's entry of status.json, as far as the test reads it. */
interface ClientStatusJson {
  client: number;
  state: string;
  summary: {
    client: number;
    clients: number;
    sent: number;
    valid: boolean;
    measured: { ok: number; rejected: number; failed: number };
    selfCheck: { sendLag: { n: number; p99Ms: number } };
  };
}

/** A run of `matrixFile` into `out`, on the test's Redis, printing nothing. */
function createClientsRun(matrixFile: string, out: string) {
  return createRun({
    matrixFile,
    out,
    redisUrl: suite.redisUrl,
    cwd: suite.dir,
    stderr: QUIET,
    stdout: QUIET,
  });
}

function writeMatrix(name: string, calls: number): { path: string; json: object } {
  const json = {
    name,
    configs: ['hedge, default budget'],
    loads: [0.3],
    cancellation: ['ignore'],
    seeds: [1],
    calls,
    calibration: false,
    clients: [1, 2],
  };
  const path = join(suite.dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(json));
  return { path, json };
}

describe('hedgebench run with clients [1, 2], everything on this machine', () => {
  it('runs two load generators for the K = 2 point, each sending exactly its own calls, and records both', async () => {
    const calls = 400;
    const { path: matrixFile, json } = writeMatrix('clients', calls);
    const out = join(suite.dir, 'run-k');
    const run = await createClientsRun(matrixFile, out);
    expect(run.plan.map((p) => p.key)).toEqual([
      'hedge, default budget|0.30|ignore|1',
      'hedge, default budget|0.30|ignore|1|k=2',
    ]);
    const outcome = await run.execute();
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.points.map((p) => p.reason ?? null)).toEqual([null, null]);
    expect(outcome).toMatchObject({ exitCode: 0, done: 2, failed: 0, pending: 0, interrupted: null });
    const [one, two] = manifest.points;
    const warm = warmupCalls({ calls, warmupFraction: 0.1 });
    const measured = Array.from({ length: calls - warm }, (_, k) => warm + k);

    // Two processes for the K = 2 point, one log each; one (named as always) for the K = 1 point.
    const logs = join(out, 'work', 'loadgen');
    expect(existsSync(join(logs, `loadgen-${one!.slug}.log`))).toBe(true);
    expect(existsSync(join(logs, `loadgen-${two!.slug}-c0.log`))).toBe(true);
    expect(existsSync(join(logs, `loadgen-${two!.slug}-c1.log`))).toBe(true);
    expect(existsSync(join(logs, `loadgen-${two!.slug}.log`))).toBe(false);

    // Every measured call once in the calls file, whoever sent it.
    const c = readCallsCsv(join(out, 'raw', `${two!.slug}.calls.csv`));
    expect(Array.from(c.call).sort((a, b) => a - b)).toEqual(measured);

    // Each client's own status (from its own process) under `clients`, with its summary and self-check.
    const status = JSON.parse(readFileSync(join(out, 'raw', `${two!.slug}.status.json`), 'utf8'));
    expect(status.state).toBe('done');
    expect(status.clients).toHaveLength(2);
    for (const [i, s] of (status.clients as ClientStatusJson[]).entries()) {
      expect(s.client).toBe(i);
      expect(s.state).toBe('done');
      expect(s.summary.client).toBe(i);
      expect(s.summary.clients).toBe(2);
      // Client i sent exactly the calls ≡ i (mod 2): its measured count and its send-lag sample say so.
      const mine = measured.filter((k) => k % 2 === i).length;
      expect(s.summary.selfCheck.sendLag.n).toBe(mine);
      expect(s.summary.measured.ok + s.summary.measured.rejected + s.summary.measured.failed).toBe(mine);
      expect(s.summary.sent).toBe(calls / 2);
      expect(typeof s.summary.selfCheck.sendLag.p99Ms).toBe('number');
      expect(typeof s.summary.valid).toBe('boolean');
    }
    // Attribution puts each client's calls on its own timeline (its own t0 and clock offset): every part
    // adds up, and neither way of the trip is negative beyond the clients' offset uncertainties — read at
    // the 1st percentile, not the minimum: a generator descheduled between its socket write and the write's
    // timestamp (three processes on two cores) puts a rare call's transit below the bound, while a call
    // placed on the other client's timeline would move half of them.
    const raw = (ext: string) => join(out, 'raw', `${two!.slug}.${ext}`);
    const st = readStatusJson(raw('status.json'));
    const at = attribute(c, readAttemptsCsv(raw('attempts.csv')), st);
    expect(at.missing).toBe(0);
    expect(at.n).toBe(c.outcome.filter((o) => o === OUTCOME_CODE.ok).length);
    for (let k = 0; k < at.n; k++) expect(Math.abs(residualMs(at, k))).toBeLessThan(0.01);
    const offsets = (status.clients as ClientStatusJson[]).map((s) => clockOffsetOf({ summary: s.summary }));
    expect(offsets.every((o) => o !== null)).toBe(true);
    const slack = Math.max(...offsets.map((o) => o!.uncertaintyMs)) + 0.002;
    expect(percentileOf(at.parts.request_transit, 1)).toBeGreaterThan(-slack);
    expect(percentileOf(at.parts.response_transit, 1)).toBeGreaterThan(-slack);

    // The merged summary counts both clients; the K = 1 status has no `clients` and no client index.
    expect(
      status.summary.measured.ok + status.summary.measured.rejected + status.summary.measured.failed,
    ).toBe(measured.length);
    const single = JSON.parse(readFileSync(join(out, 'raw', `${one!.slug}.status.json`), 'utf8'));
    expect(single.clients).toBeUndefined();
    expect(single.summary.client).toBeUndefined();

    // The manifest and the report carry each client's figures.
    expect(one!.clients).toBeUndefined();
    expect(two!.clients!.map((f) => f.client)).toEqual([0, 1]);
    for (const f of two!.clients!) {
      expect(f.measuredCalls).toBe(measured.filter((k) => k % 2 === f.client).length);
      expect(f.requestsPerCall).toBeGreaterThanOrEqual(1);
      expect(f.selfCheckPassed).not.toBeNull();
      expect(f.sendLagP99Ms).toBe(status.clients[f.client].summary.selfCheck.sendLag.p99Ms);
    }
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toContain('## Load generators per point');
    expect(report).toContain('0 of 2');

    // The simulated rows are exactly `hedgebench simulate`'s for the same matrix.
    const sim = await simulateMatrix(parseMatrix(json), join(suite.dir, 'sim'), { threads: 0 });
    const simRows = parsePointsCsv(readFileSync(sim.pointsCsvPath, 'utf8'));
    const runSim = parsePointsCsv(readFileSync(join(out, 'points.csv'), 'utf8')).filter(
      (r) => r.source === 'sim',
    );
    expect(runSim).toEqual(simRows);

    expect(await suite.redis.keys(`hb:${manifest.run}:*`)).toEqual([]);
    expect(await processesMentioning(out)).toEqual([]);
  });

  it('stops both load generators of a point when the run is interrupted', async () => {
    // Long enough (~6 s of schedule at load 0.3) to be interrupted mid-point.
    const { path: matrixFile } = writeMatrix('clients-abort', 2000);
    const out = join(suite.dir, 'run-abort');
    const run = await createClientsRun(matrixFile, out);
    const k2 = run.plan[1]!;
    const running = run.execute();
    const keys = redisKeys(basename(out), k2.slug);
    const both = [keys.clientStatus(0, 2), keys.clientStatus(1, 2)];
    await until(
      async () => (await suite.redis.exists(...both)) === 2,
      90_000,
      'both load generators of the K = 2 point running',
    );
    expect((await processesMentioning(`"clients":2`)).length).toBeGreaterThanOrEqual(2);
    run.interrupt('SIGINT');
    const outcome = await running;
    expect(outcome.interrupted).toBe('SIGINT');
    expect(await processesMentioning(out)).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.points[1]!.state).toBe('pending');
  });
});
