// Shell metacharacters through the real `hedgebench run` CLI: in the hosts file (ssh destinations, work
// folders, addresses, the ssh_config path, the Redis URL), in --out, and in a matrix's configuration
// name that a real run hands to its agents. Each is rejected with one clear error naming the field, or
// passed as a plain argument — and no payload command ever runs (its marker file never appears).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killProcessesMentioning, requireBuild, rmTemp, runCli, tempDir } from '../orchestrator/fixture.ts';
import { filesUnder, writeMatrix } from './fixture.ts';

let dir: string;
let n = 0;

beforeAll(() => {
  requireBuild();
  dir = tempDir('hb-rel-inject-');
});

afterAll(async () => {
  await killProcessesMentioning(dir);
  rmTemp(dir);
});

/** A shell payload that would create marker files if any shell ever interpreted it. */
function payloads(k = 4): { text: string; markers: string[] } {
  const m = Array.from({ length: k }, () => join(dir, `pwned-${++n}`));
  const forms = [(f: string) => `;touch ${f}`, (f: string) => `$(touch ${f})`, (f: string) => `|touch ${f}`];
  const text = `x${m.map((f, i) => forms[i % 3]!(f)).join('')}${k >= 4 ? '`touch x`' : ''}`;
  return { text, markers: m };
}

/** Marker files created anywhere under the test folder (must stay none). */
const pwned = () => filesUnder(dir).filter((f) => /pwned-\d+$/.test(f));

const host = { ssh: 'root@198.18.0.99', workDir: '/var/tmp/hb', address: '198.18.0.99' };

describe('shell metacharacters reach no shell', () => {
  it('rejects them in each hosts-file field with one error naming the field', async () => {
    const p = payloads();
    const bad: [string, object][] = [
      ['target.ssh', { target: { ...host, ssh: `root@${p.text}` } }],
      ['target.ssh', { target: { ...host, ssh: `-oProxyCommand=${p.text}` } }],
      ['loadgen.workDir', { loadgen: { ...host, workDir: `/var/tmp/${p.text}` } }],
      ['loadgen.address', { loadgen: { ...host, address: p.text } }],
      ['redis.url', { redis: { url: `redis://${p.text}:6379` } }],
      ['redis.ssh', { redis: { ...host, ssh: `$(touch ${p.markers[0]})@h` } }],
    ];
    const runs = await Promise.all(
      bad.map(async ([field, patch], i) => {
        const hosts = join(dir, `hosts-${i}.json`);
        writeFileSync(
          hosts,
          JSON.stringify({
            target: host,
            loadgen: host,
            redis: { url: 'redis://198.18.0.99:6379' },
            ...patch,
          }),
        );
        const out = join(dir, `never-${i}`);
        const matrix = writeMatrix(dir, `m${i}`, { calls: 100 });
        return { field, out, r: await runCli(['run', '--matrix', matrix, '--hosts', hosts, '--out', out]) };
      }),
    );
    for (const { field, out, r } of runs) {
      const stderr = String(r.stderr);
      expect(r.exitCode, field).toBe(1);
      expect(stderr, field).toMatch(/^hedgebench: HB_HOSTS_INVALID: /);
      expect(stderr, field).toContain(`- ${field}: got `);
      expect(stderr, field).not.toMatch(/\n\s+at /);
      expect(existsSync(out), field).toBe(false);
    }
    expect(pwned()).toEqual([]);
  });

  it('passes an ssh_config path full of metacharacters to ssh as one argument, and says it cannot be read', async () => {
    const p = payloads();
    const cfg = join(dir, 'cfg with spaces;$(x)');
    const hosts = join(dir, 'hosts-cfg.json');
    const hostsWith = (sshConfig: string) =>
      JSON.stringify({
        sshConfig,
        connectTimeoutSeconds: 2,
        target: host,
        loadgen: host,
        redis: { url: 'redis://198.18.0.99:6379' },
      });
    writeFileSync(hosts, hostsWith(p.text));
    const out = join(dir, 'never-cfg');
    const matrix = writeMatrix(dir, 'mcfg', { calls: 100 });
    const missing = await runCli(['run', '--matrix', matrix, '--hosts', hosts, '--out', out]);
    expect(missing.exitCode).toBe(1);
    expect(String(missing.stderr)).toMatch(
      /^hedgebench: HB_HOSTS_INVALID: .*\n {2}- sshConfig: .* cannot be read \(ENOENT\)/,
    );
    expect(existsSync(out)).toBe(false);

    // The same odd name as an existing file: ssh gets it as it is, and then finds 198.18.0.99 unreachable.
    writeFileSync(cfg, 'Host *\n  StrictHostKeyChecking yes\n');
    writeFileSync(hosts, hostsWith(cfg));
    const r = await runCli(['run', '--matrix', matrix, '--hosts', hosts, '--out', out]);
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toContain('hedgebench: HB_SSH_UNREACHABLE: ');
    expect(String(r.stderr)).toContain('198.18.0.99');
    expect(pwned()).toEqual([]);
  });

  it('rejects --out names that cannot be a run id, before anything is created', async () => {
    for (const name of ['my run', payloads().text, 'x'.repeat(201)]) {
      const out = join(dir, name);
      const r = await runCli(['run', '--matrix', writeMatrix(dir, 'mout', { calls: 100 }), '--out', out]);
      expect(r.exitCode, name).toBe(1);
      expect(String(r.stderr), name).toMatch(/^hedgebench: HB_RUN_OPTION: --out .*becomes the run id/);
      expect(existsSync(out), name).toBe(false);
    }
    expect(pwned()).toEqual([]);
  });

  it('hands a configuration name full of metacharacters to real agents as data', async () => {
    const p = payloads(2);
    const name = `odd ${p.text}`;
    expect(name.length).toBeLessThanOrEqual(100);
    const matrix = join(dir, 'odd.json');
    writeFileSync(
      matrix,
      JSON.stringify({
        name: 'odd',
        configs: [{ name, hedge: { delayMs: 20 } }],
        loads: [0.5],
        cancellation: ['ignore'],
        seeds: [1],
        calls: 300,
        calibration: false,
        model: { workers: 4 },
      }),
    );
    const out = join(dir, 'odd-run');
    const r = await runCli(['run', '--matrix', matrix, '--out', out], { cwd: dir });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    // The name arrived intact where it is data (points.csv), and nothing ran.
    expect(readFileSync(join(out, 'points.csv'), 'utf8')).toContain('odd x;touch');
    expect(pwned()).toEqual([]);
  });
});
