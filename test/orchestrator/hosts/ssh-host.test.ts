// End-to-end: SshHost against real sshd servers in the lab's network namespaces (exec, start/stop, files, mux).
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkNode,
  createSshHost,
  type Host,
  isRedisUrl,
  openHosts,
  type RunHosts,
  type SshHost,
} from '../../../orchestrator/hosts/index.ts';
import {
  LAB_IDS,
  type Lab,
  labDir,
  labSkipReason,
  labUp,
  runLab,
  warnLabSkipped,
} from '../../lab/lab-fixture.ts';

const skip = labSkipReason();
if (skip) warnLabSkipped('SSH host tests (test/orchestrator/hosts/ssh-host.test.ts)', skip);
const ID = LAB_IDS.sshHost;

describe.skipIf(skip !== undefined)('SshHost on the lab', () => {
  let lab: Lab;
  let hosts: RunHosts;
  let all: { role: string; host: SshHost; address: string }[];
  let local: string;

  beforeAll(async () => {
    local = await mkdtemp(join(tmpdir(), 'hb-ssh-test-'));
    lab = await labUp(ID);
    hosts = await openHosts(lab.hostsFile, local);
    if (isRedisUrl(hosts.redis)) throw new Error('lab hosts.json should make redis a host');
    all = [
      { role: 'target', host: hosts.target as SshHost, address: lab.addresses.target },
      { role: 'loadgen', host: hosts.loadgen as SshHost, address: lab.addresses.loadgen },
      { role: 'redis', host: hosts.redis as SshHost, address: lab.addresses.redis },
    ];
  });

  afterAll(async () => {
    await hosts?.close();
    await runLab('down', ID, labDir(ID));
    await rm(local, { recursive: true, force: true });
  });

  it('runs a command on each host, inside that host and in its workDir', async () => {
    for (const { role, host, address } of all) {
      const r = await host.exec(['sh', '-c', 'hostname -I; pwd; ip netns identify $$']);
      const [ips, cwd, ns] = r.stdout.trim().split('\n');
      expect(r.exitCode, role).toBe(0);
      expect(ips.trim().split(/\s+/), role).toEqual([address]);
      expect(cwd, role).toBe(host.workDir);
      expect(ns, role).toBe(`${lab.prefix}-${role}`);
    }
    const failing = await hosts.target.exec(['sh', '-c', 'echo oops >&2; exit 7']);
    expect(failing).toEqual({ stdout: '', stderr: 'oops\n', exitCode: 7 });
    const withInput = await hosts.target.exec(['cat'], { input: 'from stdin\n' });
    expect(withInput.stdout).toBe('from stdin\n');
  });

  it('gives each host its own working directory', () => {
    const dirs = new Set(all.map((h) => h.host.workDir));
    expect(dirs.size).toBe(3);
  });

  it('has only the lab /24 as a route inside each host (no way out)', async () => {
    for (const { role, host } of all) {
      const r = await host.exec(['ip', '-4', 'route', 'show']);
      expect(r.stdout.trim().split('\n'), role).toEqual([
        expect.stringMatching(new RegExp(`^${lab.net}\\.0/24 dev eth0`)),
      ]);
      // `ip route get` only consults the table; no packet is sent.
      const out = await host.exec(['ip', 'route', 'get', '192.0.2.1']);
      expect(out.exitCode, role).not.toBe(0);
      expect(out.stderr, role).toMatch(/unreachable/i);
    }
  });

  it('carries traffic between hosts across the bridge (loadgen → target)', async () => {
    const server = `require("node:http").createServer((q, s) => s.end("from " + q.socket.remoteAddress)).listen(7400, ${JSON.stringify(lab.addresses.target)}, () => console.log("listening"))`;
    const { pid } = await hosts.target.start(['node', '-e', server], { name: 'http' });
    try {
      await waitFor(async () => (await hosts.target.readFile('http.log')).includes('listening'));
      const client = `fetch("http://${lab.addresses.target}:7400/").then(async (r) => console.log(await r.text()))`;
      const r = await hosts.loadgen.exec(['node', '-e', client], { timeoutMs: 20_000 });
      expect(r.stdout.trim()).toBe(`from ${lab.addresses.loadgen}`);
    } finally {
      await hosts.target.stop(pid);
    }
  });

  it('multiplexes: many commands cost one authenticated connection', async () => {
    const host = hosts.loadgen as SshHost;
    await host.exec(['true']);
    expect(await host.masterRunning()).toBe(true);
    const log = join(lab.dir, 'hosts', `${lab.prefix}-loadgen`, 'sshd.log');
    const accepted = () => (readFileSync(log, 'utf8').match(/Accepted publickey/g) ?? []).length;
    const before = accepted();
    for (let i = 0; i < 5; i++) expect((await host.exec(['echo', String(i)])).stdout).toBe(`${i}\n`);
    await host.writeFile('mux.txt', 'x');
    expect(accepted()).toBe(before);
    expect(await host.masterRunning()).toBe(true);
  });

  it('starts a detached process that survives the ssh session, and stops it', async () => {
    for (const { role, host } of all) {
      const script =
        'console.log("up", process.env.HB_GREETING); process.on("SIGTERM", () => { console.log("term"); process.exit(0); }); setInterval(() => {}, 1000);';
      const { pid } = await host.start(['node', '-e', script], {
        name: 'agent',
        env: { HB_GREETING: 'hi $(x) `y`' },
      });
      expect(await host.isAlive(pid), role).toBe(true);
      // A fresh connection (new master) still sees it: it did not die with the session that started it.
      const other = createSshHost({
        name: `${role}-2`,
        destination: `root@${host.address}`,
        address: host.address,
        workDir: host.workDir,
        sshConfig: lab.sshConfig,
      });
      try {
        expect(await other.isAlive(pid), role).toBe(true);
        await waitFor(async () => (await other.readFile('agent.log')).includes('up hi $(x) `y`'));
        await other.stop(pid, { timeoutMs: 5000 });
        expect(await other.isAlive(pid), role).toBe(false);
        expect(await host.isAlive(pid), role).toBe(false);
        expect(await other.readFile('agent.log')).toContain('term');
        await other.stop(pid); // already gone: no error
      } finally {
        await other.close();
      }
    }
  });

  it('says clearly when the program to start does not exist on the host', async () => {
    await expect(
      hosts.target.start(['no-such-program-hb', '--x'], { name: 'missing' }),
    ).rejects.toMatchObject({
      code: 'HB_HOST_COMMAND',
      message: expect.stringMatching(/host target: could not start missing .*command not found/),
    });
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const host = hosts.target;
    const { pid } = await host.start(['sh', '-c', 'trap "" TERM; while :; do sleep 1; done'], {
      name: 'stubborn',
    });
    expect(await host.isAlive(pid)).toBe(true);
    await host.stop(pid, { timeoutMs: 300 });
    expect(await host.isAlive(pid)).toBe(false);
    // Its group went too: the sleep child does not linger.
    const left = await host.exec(['ps', '-eo', 'pgid=,stat=']);
    const live = left.stdout
      .split('\n')
      .filter((l) => l.trim().split(/\s+/)[0] === String(pid) && !/\sZ/.test(l));
    expect(live).toEqual([]);
  });

  it('writes files with the requested mode (content never on a command line) and reads them back', async () => {
    for (const { role, host } of all) {
      const secret = `token-${role}-'$(touch /tmp/hb-pwned-write)'`;
      const path = await host.writeFile('secrets/token', secret, 0o600);
      expect(path).toBe(`${host.workDir}/secrets/token`);
      expect(await host.readFile('secrets/token')).toBe(secret);
      const st = await host.exec(['stat', '-c', '%a', 'secrets/token']);
      expect(st.stdout.trim(), role).toBe('600');
    }
    expect(existsSync('/tmp/hb-pwned-write')).toBe(false);
  });

  it('uploads a file, and skips the copy when it is unchanged', async () => {
    const src = join(local, 'bundle.mjs');
    await writeFile(src, `console.log(${JSON.stringify('x'.repeat(50_000))}.length)\n`);
    for (const { role, host } of all) {
      const remote = await host.upload(src, 'bundle.mjs');
      expect(remote).toBe(`${host.workDir}/bundle.mjs`);
      const ran = await host.exec(['node', 'bundle.mjs']);
      expect(ran.stdout, role).toBe('50000\n');
      const before = (await stat(remote)).mtimeMs; // the lab shares this file system
      await host.upload(src, 'bundle.mjs');
      expect((await stat(remote)).mtimeMs, role).toBe(before);
    }
    await writeFile(src, 'console.log("v2")\n');
    await hosts.target.upload(src, 'bundle.mjs');
    expect((await hosts.target.exec(['node', 'bundle.mjs'])).stdout).toBe('v2\n');
  });

  it('passes hostile arguments through ssh literally: nothing injected runs', async () => {
    const marker = join(local, 'pwned');
    const hostile = [
      `$(touch ${marker})`,
      `; touch ${marker}`,
      `\`touch ${marker}\``,
      `' ; touch ${marker} ; '`,
      `" && touch ${marker} && "`,
      `| touch ${marker}`,
      `\n touch ${marker}`,
      '*',
      '~',
      '',
      "it's",
    ];
    const r = await hosts.target.exec(['printf', '%s\\0', ...hostile]);
    expect(r.stdout.split('\0').slice(0, -1)).toEqual(hostile);
    const started = await hosts.target.start(['printf', '%s\\n', ...hostile], {
      name: 'hostile',
      env: { X: `$(touch ${marker})` },
    });
    await waitFor(async () => !(await hosts.target.isAlive(started.pid)));
    expect(existsSync(marker)).toBe(false);
    await expect(hosts.target.writeFile('../escape', 'x')).rejects.toMatchObject({
      code: 'HB_HOST_ARGUMENT',
    });
    await expect(hosts.target.writeFile('a;touch x', 'x')).rejects.toMatchObject({
      code: 'HB_HOST_ARGUMENT',
    });
    await expect(hosts.target.start(['true'], { name: 'x', env: { 'A;B': '1' } })).rejects.toMatchObject({
      code: 'HB_HOST_ARGUMENT',
    });
  });

  it('checks Node on each host', async () => {
    for (const { host } of all) expect(await checkNode(host)).toMatch(/^v2\d\./);
    await expect(checkNode(hosts.target, 'no-such-node')).rejects.toMatchObject({
      code: 'HB_NODE_MISSING',
      message: expect.stringContaining('host target'),
    });
  });

  it('fails within the connect timeout, naming the host, when the address is unreachable', async () => {
    const address = `${lab.net}.99`;
    const host = createSshHost({
      name: 'target',
      destination: `root@${address}`,
      address,
      workDir: '/tmp/hb-nowhere',
      sshConfig: lab.sshConfig,
      connectTimeoutSeconds: 2,
    });
    const t0 = performance.now();
    const err = await host.exec(['true']).catch((e: unknown) => e);
    const ms = performance.now() - t0;
    await host.close();
    expect(err).toMatchObject({ code: 'HB_SSH_UNREACHABLE' });
    expect((err as Error).message).toContain(`host target (root@${address})`);
    expect((err as Error).message).toMatch(/Fix:/);
    expect(ms).toBeLessThan(2_000 + 8_000); // the bound the connect timeout promises, with slack for a busy box
  });

  it('reports a refused login as HB_SSH_AUTH with the fix', async () => {
    const bad = createSshHost({
      name: 'loadgen',
      destination: `nobody@${lab.addresses.loadgen}`,
      address: lab.addresses.loadgen,
      workDir: '/tmp/hb-x',
      sshConfig: lab.sshConfig,
    });
    await expect(bad.exec(['true'])).rejects.toMatchObject({
      code: 'HB_SSH_AUTH',
      message: expect.stringContaining('host loadgen'),
    });
    await bad.close();
    // An untrusted host key is refused too (StrictHostKeyChecking yes, empty known_hosts).
    const cfg = join(local, 'ssh_config_untrusted');
    await writeFile(
      cfg,
      readFileSync(lab.sshConfig, 'utf8').replace(
        /UserKnownHostsFile .*/,
        `UserKnownHostsFile ${join(local, 'empty_known_hosts')}`,
      ),
    );
    const untrusted = createSshHost({
      name: 'redis',
      destination: `root@${lab.addresses.redis}`,
      address: lab.addresses.redis,
      workDir: '/tmp/hb-x',
      sshConfig: cfg,
    });
    await expect(untrusted.exec(['true'])).rejects.toMatchObject({ code: 'HB_SSH_AUTH' });
    await untrusted.close();
  });

  it('describes the hosts without secrets and closes the masters', async () => {
    const d = JSON.stringify(hosts.describe());
    expect(d).toContain(lab.addresses.target);
    expect(d).not.toMatch(/BEGIN OPENSSH|PRIVATE/);
    const h = createSshHost({
      name: 'target',
      destination: `root@${lab.addresses.target}`,
      address: lab.addresses.target,
      workDir: '/tmp/hb-x',
      sshConfig: lab.sshConfig,
    });
    await h.exec(['true']);
    expect(await h.masterRunning()).toBe(true);
    await h.close();
    expect(await h.masterRunning()).toBe(false);
    await expect(h.exec(['true'])).rejects.toMatchObject({ code: 'HB_HOST_COMMAND' });
  });
});

async function waitFor(cond: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
}

export type { Host };
