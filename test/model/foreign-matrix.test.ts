// A matrix for a foreign service: `target.url` must be an http:// URL, the dimensions that need hedgebench's
// own server are refused one clear error each, and `model` may be the path of a probe's model.json —
// resolved from the matrix file, checked with the matrix's model schema, errors naming the file and field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandMatrix, MatrixInvalidError, parseMatrix, pointKey } from '../../model/index.ts';
import { readMatrixFile } from '../../simulator/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'hb-foreign-matrix-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = {
  name: 'mine',
  configs: ['no hedge', 'hedge, default budget'],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 100,
  target: { url: 'http://127.0.0.1:8080/api/work?x=1' },
};

function issuesOf(json: unknown): string[] {
  try {
    parseMatrix(json, 'mine.json');
  } catch (e) {
    expect(e).toBeInstanceOf(MatrixInvalidError);
    expect((e as MatrixInvalidError).code).toBe('HB_MATRIX_INVALID');
    return [...(e as MatrixInvalidError).issues];
  }
  throw new Error('expected the matrix to be rejected');
}

function fileIssues(matrix: unknown, files: Record<string, string> = {}): string[] {
  const sub = mkdtempSync(join(dir, 'm-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(sub, name), text);
  const path = join(sub, 'matrix.json');
  writeFileSync(path, JSON.stringify(matrix));
  try {
    readMatrixFile(path);
  } catch (e) {
    expect(e).toBeInstanceOf(MatrixInvalidError);
    expect((e as Error).message).toContain(path);
    return [...(e as MatrixInvalidError).issues];
  }
  throw new Error('expected the matrix file to be rejected');
}

const fitted = {
  workers: 4,
  medianMs: 9.8,
  sigma: 0.27,
  stragglerProb: 0.021,
  stragglerMinMs: 101,
  stragglerMaxMs: 290,
};

describe('a matrix naming a foreign target', () => {
  it('keeps the URL, and its points keep the keys they would have without it', () => {
    const m = parseMatrix(base);
    expect(m.target).toEqual({ url: 'http://127.0.0.1:8080/api/work?x=1' });
    const { target: _t, ...own } = base;
    expect(expandMatrix(m).map(pointKey)).toEqual(expandMatrix(parseMatrix(own)).map(pointKey));
    expect(parseMatrix(own).target).toBeUndefined();
  });

  it.each([
    ['not a url', 'is not a URL; write http://HOST:PORT/PATH'],
    ['https://127.0.0.1:8443/x', 'uses https://, which the load generator does not speak yet'],
    ['ftp://127.0.0.1/x', 'uses ftp:; the target must be an http:// URL'],
    ['http://127.0.0.1:8080/x#frag', 'has a #fragment, which is never sent; remove it'],
  ])('refuses target.url %s', (url, text) => {
    const issues = issuesOf({ ...base, target: { url } });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^target\.url: /);
    expect(issues[0]).toContain(text);
  });

  it('refuses a target without a url, or with unknown fields', () => {
    expect(issuesOf({ ...base, target: {} })).toEqual(['target.url: is required (string)']);
    expect(issuesOf({ ...base, target: { url: 'http://127.0.0.1:1/', host: 'x' } })[0]).toContain(
      'unknown field(s) "host"',
    );
  });

  it.each([
    ['replicas', [1, 2], 'so it has no replicas to add; remove replicas (or list only 1)'],
    ['correlation', [0, 0.5], 'so its stragglers cannot be correlated; remove correlation (or list only 0)'],
    ['slowReplica', [2], 'so no replica can be slowed; remove slowReplica (or list only 1)'],
    ['transport', ['http1', 'grpc'], 'it is reached over HTTP/1.1 only; remove "grpc" from transport'],
  ])('refuses %s %j, a server-side dimension, with one error', (field, value, text) => {
    const issues = issuesOf({ ...base, [field]: value });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(new RegExp(`^${field}: a foreign target`));
    expect(issues[0]).toContain(text);
  });

  it('accepts those dimensions at their defaults', () => {
    const m = parseMatrix({
      ...base,
      replicas: [1],
      correlation: [0],
      slowReplica: [1],
      transport: ['http1'],
    });
    expect(expandMatrix(m)).toHaveLength(2);
  });

  it('refuses a model path outside a matrix file (nothing to resolve it from)', () => {
    const issues = issuesOf({ ...base, model: 'model.json' });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain(
      'model: "model.json": a path to a model.json is read only from a matrix file',
    );
  });
});

describe('model as a path to a model.json', () => {
  it('reads the file relative to the matrix file, as if the model were written inline', () => {
    const sub = mkdtempSync(join(dir, 'ok-'));
    writeFileSync(join(sub, 'fitted.json'), JSON.stringify(fitted));
    writeFileSync(join(sub, 'matrix.json'), JSON.stringify({ ...base, model: 'fitted.json' }));
    const m = readMatrixFile(join(sub, 'matrix.json'));
    expect(m.model).toEqual(fitted);
    expect(m).toEqual(parseMatrix({ ...base, model: fitted }));
  });

  it('refuses a missing file, naming it and how to make one', () => {
    const issues = fileIssues({ ...base, model: 'none.json' });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^model: the model file .*none\.json cannot be read \(ENOENT\)/);
    expect(issues[0]).toContain('hedgebench probe --target URL --out DIR');
  });

  it('refuses a file that is not JSON', () => {
    const issues = fileIssues({ ...base, model: 'm.json' }, { 'm.json': '{ workers: 4' });
    expect(issues[0]).toMatch(/^model: the model file .*m\.json is not valid JSON/);
  });

  it('refuses bad fields one error each, naming the file and the field', () => {
    const issues = fileIssues(
      { ...base, model: 'm.json' },
      { 'm.json': JSON.stringify({ ...fitted, workers: 0, sigma: 9, extra: 1 }) },
    );
    expect(issues).toHaveLength(3);
    expect(issues.some((i) => /m\.json: workers: must be ≥ 1$/.test(i))).toBe(true);
    expect(issues.some((i) => /m\.json: sigma: must be ≤ 5$/.test(i))).toBe(true);
    expect(issues.some((i) => /m\.json: \(top level\): unknown field\(s\) "extra"/.test(i))).toBe(true);
  });
});
