// End to end, distributed: `hedgebench run --hosts` on the SSH lab (three network namespaces, a real sshd in
// each) as a real child process. It deploys the bundles over SSH, starts Redis on the third host, measures,
// collects and compares; the test then checks the results, that the load crossed from the load generator's
// namespace to the target's, and that no agent, connection or Redis key outlived the run. The lab is taken
// down at the end, also when an assertion or the run itself fails.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, parseComparisonCsv, parsePointsCsv } from '../../contract/index.ts';
import { LAB_IDS, type Lab, labSkipReason, labUp, REPO, warnLabSkipped } from '../lab/lab-fixture.ts';
import { ensureFreshBuild } from './fresh-build.ts';
import { type Proc, processesInNamespace, processesMentioning, settle } from './lab-processes.ts';
import { keysInDump, RedisWatch, type RedisWatchReport } from './redis-watch.ts';

const skip = labSkipReason();
if (skip) warnLabSkipped('distributed end-to-end test (test/e2e/distributed-run.test.ts)', skip);
const ID = LAB_IDS.orchestratorE2e;
const ROLES = ['target', 'loadgen', 'redis'] as const;
type Role = (typeof ROLES)[number];

/** Two configurations × one load × both cancellation modes, plus the calibration point: 3 500 calls. */
const MATRIX = {
  name: 'e2e-distributed',
  configs: ['no hedge', 'hedge, default budget'],
  loads: [0.5],
  cancellation: ['ignore', 'propagate'],
  seeds: [1],
  calls: 800,
  warmupFraction: 0.1,
  calibration: { load: 0.1, calls: 300 },
};

/** What the run left, gathered while the lab still exists. */
interface Evidence {
  exitCode: number | undefined;
  output: string;
  seconds: number;
  watch: RedisWatchReport;
  /** Keys in the dump redis-server wrote when the orchestrator stopped it; null when it wrote none. */
  dumpKeys: string[] | null;
  workDirs: Record<Role, string>;
  targetLog: string;
  sshdLogs: Record<Role, string>;
  /** Live processes per lab namespace other than the lab's own sshd listener. */
  leftInNamespaces: Record<Role, Proc[]>;
  /** Live processes mentioning the lab's folder (ssh masters, agents) other than the sshd listeners. */
  leftMentioningLab: Proc[];
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function readIf(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

describe.skipIf(skip !== undefined)('hedgebench run --hosts on the SSH lab', () => {
  let lab: Lab | undefined;
  let tmp: string | undefined;
  let out: string;
  let child: ResultPromise | undefined;
  let watch: RedisWatch | undefined;
  let ev: Evidence;

  const cleanUp = async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await child.catch(() => {});
    }
    await watch?.stop().catch(() => {});
    // Safe when up failed half-way and when the last test already took the lab down.
    await lab?.down().catch((err: Error) => console.warn(`e2e: lab down failed: ${err.message}`));
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };

  beforeAll(async () => {
    try {
      const build = await ensureFreshBuild();
      tmp = mkdtempSync(join(tmpdir(), 'hb-e2e-'));
      out = join(tmp, 'run');
      const matrixFile = join(tmp, 'matrix.json');
      writeFileSync(matrixFile, JSON.stringify(MATRIX));
      const tUp = Date.now();
      lab = await labUp(ID);
      const upSeconds = (Date.now() - tUp) / 1000;
      const hostsJson = JSON.parse(readFileSync(lab.hostsFile, 'utf8'));
      const workDirs = Object.fromEntries(ROLES.map((r) => [r, hostsJson[r].workDir as string])) as Record<
        Role,
        string
      >;
      // The lab's Redis speaks TLS only; the watcher verifies it with the lab's CA like every agent does.
      expect(hostsJson.redis.tls?.ca, 'the lab writes redis.tls into hosts.json by default').toBeDefined();
      watch = new RedisWatch(
        join(workDirs.redis, 'redis.conf'),
        lab.addresses.redis,
        hostsJson.redis.port,
        readFileSync(join(lab.dir, hostsJson.redis.tls.ca), 'utf8'),
      );
      watch.start();

      const t0 = Date.now();
      child = execa(
        process.execPath,
        [
          join(REPO, 'bin', 'hedgebench.js'),
          'run',
          '--hosts',
          lab.hostsFile,
          '--matrix',
          matrixFile,
          '--out',
          out,
        ],
        { cwd: tmp, reject: false, all: true, timeout: 180_000, forceKillAfterDelay: 10_000 },
      );
      const r = await child;
      const seconds = (Date.now() - t0) / 1000;
      const report = await watch.stop();

      const dump = join(workDirs.redis, 'data', 'dump.rdb');
      const labHosts = join(lab.dir, 'hosts');
      const listeners = new Set(
        ROLES.map((role) => Number(readIf(join(labHosts, `${lab!.prefix}-${role}`, 'sshd.pid')).trim())),
      );
      const notListener = (p: Proc) => !listeners.has(p.pid);
      const leftInNamespaces = {} as Record<Role, Proc[]>;
      for (const role of ROLES) {
        leftInNamespaces[role] = await settle(() =>
          processesInNamespace(`${lab!.prefix}-${role}`).filter(notListener),
        );
      }
      ev = {
        exitCode: r.exitCode,
        output: String(r.all ?? ''),
        seconds,
        watch: report,
        dumpKeys: existsSync(dump) ? await keysInDump(dump) : null,
        workDirs,
        targetLog: readIf(join(workDirs.target, 'target.log')),
        sshdLogs: Object.fromEntries(
          ROLES.map((role) => [role, readIf(join(labHosts, `${lab!.prefix}-${role}`, 'sshd.log'))]),
        ) as Record<Role, string>,
        leftInNamespaces,
        leftMentioningLab: await settle(() => processesMentioning(lab!.dir).filter(notListener)),
      };
      const stopped = /\/work requests by client address: .*$/m.exec(ev.targetLog)?.[0] ?? 'no stop line';
      console.log(
        `e2e: ${build}; lab up ${upSeconds.toFixed(1)} s; hedgebench run --hosts ${seconds.toFixed(1)} s (exit ${r.exitCode}); Redis: ${report.keysSeen.length} keys seen, at most ${report.maxKeys} at once, ${ev.dumpKeys?.length ?? 'no dump'} in the final dump; target: ${stopped}`,
      );
    } catch (err) {
      await cleanUp();
      throw err;
    }
  }, 300_000);

  afterAll(cleanUp, 120_000);

  /** The run's output, for assertion messages. */
  const said = () => `hedgebench run said:\n${ev.output.slice(-4000)}`;
  const manifest = () => JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;

  it('measures every point over SSH and exits 0', () => {
    // A point the load generator's self-check marks invalid (send lag on a busy box) is still done: exit 0.
    expect(ev.exitCode, said()).toBe(0);
    const m = manifest();
    expect(
      m.points.map((p) => `${p.key} ${p.state}`),
      said(),
    ).toEqual(m.points.map((p) => `${p.key} done`));
    expect(m.points).toHaveLength(5);
    expect(m.points[0]).toMatchObject({ calibration: true, config: 'no hedge', load: 0.1 });
    expect(m.hosts).toMatchObject({
      mode: 'ssh',
      target: { address: lab!.addresses.target },
      loadgen: { address: lab!.addresses.loadgen },
      redis: { address: lab!.addresses.redis, tls: true },
    });
    // Every record crossed to Redis over TLS: the server has no plain port, and each agent verified it.
    expect(readFileSync(join(out, 'run.log'), 'utf8')).toContain(
      `"redis":"rediss://:***@${lab!.addresses.redis}:6379"`,
    );
  });

  it('writes a sim and a real row for every point, its raw files, and the comparison', () => {
    const rows = parsePointsCsv(readFileSync(join(out, 'points.csv'), 'utf8'));
    const m = manifest();
    for (const p of m.points) {
      const mine = rows.filter(
        (r) => `${r.config}|${r.load.toFixed(2)}|${r.cancellation}|${r.seed}` === p.key,
      );
      // sim+net: the simulator with the transport the calibration point (270 measured calls) measured.
      expect(mine.map((r) => r.source).sort(), p.key).toEqual(['real', 'sim', 'sim+net']);
      const real = mine.find((r) => r.source === 'real')!;
      expect(real.measured_calls, p.key).toBe(p.calls * 0.9);
      expect(real.p50_ms, p.key).toBeGreaterThan(0);
      for (const ext of ['calls.csv', 'attempts.csv', 'status.json']) {
        expect(existsSync(join(out, 'raw', `${p.slug}.${ext}`)), `${p.slug}.${ext}`).toBe(true);
      }
    }
    // Every point is compared, each metric with a sim and a real value (verdicts may say `invalid` here).
    const comparison = parseComparisonCsv(readFileSync(join(out, 'comparison.csv'), 'utf8'));
    const net = parseComparisonCsv(readFileSync(join(out, 'comparison-net.csv'), 'utf8'));
    for (const p of m.points) {
      const p50 = (rows: typeof comparison) =>
        rows.filter(
          (c) =>
            `${c.config}|${c.load.toFixed(2)}|${c.cancellation}|${c.seed}` === p.key && c.metric === 'p50',
        );
      const [mine] = p50(comparison);
      expect(p50(comparison), p.key).toHaveLength(1);
      expect(p50(net), p.key).toHaveLength(1);
      expect(mine?.sim, p.key).toBeGreaterThan(0);
      expect(mine?.real, p.key).toBeGreaterThan(0);
    }
  });

  it('deployed the bundles over SSH and ran each agent on its own host', () => {
    // A login from the bridge (the orchestrator's side) on each host's own sshd.
    for (const role of ROLES) {
      expect(ev.sshdLogs[role], `${role} sshd.log`).toMatch(
        new RegExp(`Accepted publickey for root from ${lab!.net.replaceAll('.', '\\.')}\\.1 `),
      );
    }
    expect(sha256(join(ev.workDirs.target, 'target-server.mjs'))).toBe(
      sha256(join(REPO, 'dist', 'target-server.mjs')),
    );
    expect(sha256(join(ev.workDirs.loadgen, 'loadgen.mjs'))).toBe(sha256(join(REPO, 'dist', 'loadgen.mjs')));
    // One load-generator log per point on the load-generator host, Redis's log on the Redis host.
    const lgLogs = readdirSync(ev.workDirs.loadgen).filter((f) => /^loadgen-.*\.log$/.test(f));
    expect(lgLogs.sort()).toEqual(
      manifest()
        .points.map((p) => `loadgen-${p.slug}.log`)
        .sort(),
    );
    expect(existsSync(join(ev.workDirs.redis, 'redis.log'))).toBe(true);
    expect(ev.targetLog).toContain(`"url":"http://${lab!.addresses.target}:7400"`);
  });

  it("sent every request from the load generator's namespace to the target's", () => {
    // The target logs, when stopped, its /work requests by client address (/stats `clients`).
    const lines = [...ev.targetLog.matchAll(/\/work requests by client address: (.*)$/gm)].map((x) => x[1]);
    expect(lines.length, ev.targetLog).toBeGreaterThan(0);
    const byClient = new Map<string, number>();
    for (const line of lines) {
      if (line === 'none') continue;
      for (const part of line.split(', ')) {
        const [address, n] = part.split(' ');
        byClient.set(address, (byClient.get(address) ?? 0) + Number(n));
      }
    }
    // Every attempt the target recorded is one /work request; all of them came from the load generator.
    const attempts = readdirSync(join(out, 'raw'))
      .filter((f) => f.endsWith('.attempts.csv'))
      .reduce(
        (n, f) =>
          n +
          readFileSync(join(out, 'raw', f), 'utf8')
            .trim()
            .split('\n').length -
          1,
        0,
      );
    expect(attempts).toBeGreaterThan(3_500 - 1);
    expect(Object.fromEntries(byClient)).toEqual({ [lab!.addresses.loadgen]: attempts });
  });

  it('leaves no agent process in any lab namespace and no ssh connection to the lab', () => {
    for (const role of ROLES) expect(ev.leftInNamespaces[role], role).toEqual([]);
    expect(ev.leftMentioningLab).toEqual([]);
  });

  it('leaves no Redis key behind', () => {
    const run = manifest().run;
    expect(ev.watch.armed, `could not log in to the run's Redis: ${ev.watch.lastError}`).toBe(true);
    // The keys existed while the points ran (so an empty end is the orchestrator's doing, not chance)...
    expect(ev.watch.maxKeys).toBeGreaterThan(0);
    expect(
      ev.watch.keysSeen.every((k) => k.startsWith(`hb:${run}:`)),
      ev.watch.keysSeen.join(' '),
    ).toBe(true);
    // ...and the state redis-server saved when the orchestrator stopped it holds none.
    expect(ev.dumpKeys, 'redis-server wrote no dump.rdb when it was stopped').not.toBeNull();
    expect(ev.dumpKeys).toEqual([]);
  });

  it('takes the lab down and leaves nothing behind', async () => {
    await lab!.down();
    const mine = new RegExp(`^(\\d+: )?${lab!.prefix}[-v]`);
    const netns = lines('ip', ['netns', 'list']).filter((l) => mine.test(l));
    const links = lines('ip', ['-o', 'link', 'show']).filter((l) => mine.test(l));
    expect({ netns, links, processes: processesMentioning(lab!.dir), dir: existsSync(lab!.dir) }).toEqual({
      netns: [],
      links: [],
      processes: [],
      dir: false,
    });
  });
});

function lines(file: string, args: string[]): string[] {
  return execFileSync(file, args, { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim() !== '');
}
