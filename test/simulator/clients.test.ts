// `clients: K`: a point's calls split by index across K independent clients (call i → client i mod K), each
// with its own policy state, on one shared service. Same arrivals and draws as one client, so a client
// without policy state changes nothing, and K = 1 is the point of a matrix without the dimension.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POINTS_HEADER, type PointRow, parsePointsCsv, rowKey } from '../../contract/index.ts';
import { expandMatrix, MatrixInvalidError, parseMatrix, pointKey, pointSlug } from '../../model/index.ts';
import { createRun } from '../../orchestrator/index.ts';
import { runPoint, simulateMatrix } from '../../simulator/index.ts';

const base = {
  name: 'clients',
  configs: ['no hedge', 'hedge, no budget', 'hedge, default budget, adaptive limit'],
  loads: [0.9],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 4000,
  calibration: false,
};

const tmp = mkdtempSync(join(tmpdir(), 'hb-clients-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('clients: K', () => {
  const m = parseMatrix({ ...base, clients: [1, 4] });
  const points = expandMatrix(m);

  it('gives each client count its own point; one client is the default and invisible', () => {
    expect(points.map(pointKey)).toEqual([
      'no hedge|0.90|ignore|1',
      'no hedge|0.90|ignore|1|k=4',
      'hedge, no budget|0.90|ignore|1',
      'hedge, no budget|0.90|ignore|1|k=4',
      'hedge, default budget, adaptive limit|0.90|ignore|1',
      'hedge, default budget, adaptive limit|0.90|ignore|1|k=4',
    ]);
    expect(pointSlug(points[1]!)).toBe('no-hedge_0.90_ignore_s1_k4');
    expect(points.map((p) => p.dims ?? null)).toEqual([
      null,
      { clients: 4 },
      null,
      { clients: 4 },
      null,
      { clients: 4 },
    ]);
  });

  it('changes a point only through the clients’ own policy state, and adds the clients column', async () => {
    const split = await simulateMatrix(m, join(tmp, 'split'), { threads: 0 });
    const plain = await simulateMatrix(parseMatrix(base), join(tmp, 'plain'), { threads: 0 });
    const text = readFileSync(split.pointsCsvPath, 'utf8');
    expect(text.split('\n')[0]).toBe(`${POINTS_HEADER},clients`);
    const rows = parsePointsCsv(text);
    expect(rows.map(rowKey)).toEqual(points.map(pointKey));
    expect(rows.map((r) => r.clients ?? null)).toEqual([null, 4, null, 4, null, 4]);
    const plainRows = parsePointsCsv(readFileSync(plain.pointsCsvPath, 'utf8'));
    const strip = (r: PointRow) => ({ ...r, clients: undefined });
    const [noHedge1, noHedge4, hedge1, hedge4, limited1, limited4] = rows.map(strip);
    // K = 1 is exactly the plain matrix's point.
    expect([noHedge1, hedge1, limited1]).toEqual(plainRows.map(strip));
    // No state to split (no hedge; a hedge without budget or limit): four clients = one client.
    expect(noHedge4).toEqual(noHedge1);
    expect(hedge4).toEqual(hedge1);
    // Four budgets and four adaptive limits are not one: the point differs.
    expect(limited4).not.toEqual(limited1);
    expect(limited4!.p99_ms).not.toBe(limited1!.p99_ms);
  });

  it('is deterministic', () => {
    const p = points[5]!;
    expect(runPoint(p).row).toEqual(runPoint(p).row);
  });

  it('refuses client counts that are not whole, positive, distinct and at most 64', () => {
    for (const [clients, msg] of [
      [[0], /clients\[0\]: must be ≥ 1/],
      [[1.5], /clients\[0\]: must be a whole number/],
      [[65], /clients\[0\]: must be ≤ 64/],
      [[2, 2], /clients: 2 appears twice/],
      [[], /clients: must list at least one client count/],
    ] as const) {
      expect(() => parseMatrix({ ...base, clients }), JSON.stringify(clients)).toThrow(MatrixInvalidError);
      expect(() => parseMatrix({ ...base, clients }), JSON.stringify(clients)).toThrow(msg);
    }
  });

  it('is planned by `hedgebench run` (K load generators per point; test/orchestrator/run-clients.test.ts measures it)', async () => {
    const matrixFile = join(tmp, 'split.json');
    writeFileSync(matrixFile, JSON.stringify({ ...base, clients: [1, 2] }));
    const run = await createRun({ matrixFile, out: join(tmp, 'run'), cwd: tmp });
    expect(run.plan.map((p) => p.key)).toContain('no hedge|0.90|ignore|1|k=2');
  });
});
