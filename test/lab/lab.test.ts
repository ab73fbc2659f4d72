// scripts/lab.sh: up makes three reachable sshd hosts with no way out; up again and down (twice) leave nothing behind.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHostsFile } from '../../orchestrator/hosts/index.ts';
import { LAB_IDS, LAB_SH, labDir, labSkipReason, labUp, runLab, warnLabSkipped } from './lab-fixture.ts';

const skip = labSkipReason();
if (skip) warnLabSkipped('lab script tests (test/lab/lab.test.ts)', skip);
const ID = LAB_IDS.labScript;
const DIR = labDir(ID);
const PREFIX = `hb${ID}`;
const NET = `198.18.${ID}`;

function netnsNames(): string[] {
  return execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter(Boolean);
}
function linkNames(): string[] {
  return execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.split(': ')[1]?.split('@')[0])
    .filter((n): n is string => Boolean(n));
}
/** Live (non-zombie) processes whose command line mentions the lab's DIR: its sshds. */
function liveLabProcesses(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
      if (cmd.includes(DIR) && state !== 'Z') found.push(`${pid} ${cmd}`);
    } catch {}
  }
  return found;
}
function leftovers() {
  return {
    netns: netnsNames().filter((n) => n.startsWith(`${PREFIX}-`)),
    links: linkNames().filter((n) => n.startsWith(PREFIX)),
    processes: liveLabProcesses(),
    dir: existsSync(DIR),
  };
}
const clean = { netns: [], links: [], processes: [], dir: false };

describe.skipIf(skip !== undefined)('scripts/lab.sh', () => {
  afterAll(() => runLab('down', ID, DIR));

  it('refuses clearly when not root', async () => {
    const r = await execa(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', LAB_SH, 'up', DIR],
      {
        reject: false,
      },
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/lab: error: the lab needs root/);
    const bad = await execa(LAB_SH, ['up', DIR], { env: { HB_LAB_ID: '300' }, reject: false });
    expect(bad.stderr).toMatch(/HB_LAB_ID must be a number from 0 to 254/);
    for (const n of ['0', '17', 'x']) {
      const targets = await execa(LAB_SH, ['up', DIR], { env: { HB_LAB_TARGETS: n }, reject: false });
      expect(targets.stderr).toMatch(/HB_LAB_TARGETS must be a number of target hosts from 1 to 16/);
    }
    for (const n of ['0', '9', 'x']) {
      const lanes = await execa(LAB_SH, ['up', DIR], { env: { HB_LAB_LANES: n }, reject: false });
      expect(lanes.stderr).toMatch(/HB_LAB_LANES must be a number of lanes from 1 to 8/);
    }
    const both = await execa(LAB_SH, ['up', DIR], {
      env: { HB_LAB_LANES: '2', HB_LAB_TARGETS: '2' },
      reject: false,
    });
    expect(both.stderr).toMatch(/a lab makes several lanes or several targets, not both/);
    expect(leftovers()).toEqual(clean);
  });

  it('brings up three hosts, each with only its own sshd on its own address, and a valid hosts file', async () => {
    const forwardBefore = readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8');
    const lab = await labUp(ID);
    expect(lab.upOutput).toMatch(/created bridge hb12-br0 with 198\.18\.12\.1\/24/);
    expect(lab.upOutput).toMatch(/started sshd in hb12-target on 198\.18\.12\.2:22/);
    expect(readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8')).toBe(forwardBefore);

    const file = parseHostsFile(JSON.parse(readFileSync(lab.hostsFile, 'utf8')));
    expect(file.target).toMatchObject({ ssh: `root@${NET}.2`, address: `${NET}.2`, port: 7400 });
    // One target host by default, written as one host (HB_LAB_TARGETS > 1 writes a list).
    expect(file.targetList).toBe(false);
    expect(readFileSync(lab.hostsFile, 'utf8')).toContain(`"target": { "ssh": "root@${NET}.2",`);
    expect(file.redis).toMatchObject({ ssh: `root@${NET}.4`, port: 6379 });
    // Redis over TLS by default: a certificate for the Redis host's address, signed by a CA whose key is gone.
    expect(file.redis).toMatchObject({
      tls: { ca: 'tls/ca.crt', cert: 'tls/redis.crt', key: 'tls/redis.key' },
    });
    expect(readdirSync(`${DIR}/tls`).sort()).toEqual(['ca.crt', 'redis.crt', 'redis.key']);
    const cert = execFileSync(
      'openssl',
      ['x509', '-in', `${DIR}/tls/redis.crt`, '-noout', '-ext', 'subjectAltName'],
      {
        encoding: 'utf8',
      },
    );
    expect(cert).toContain(`IP Address:${NET}.4`);
    execFileSync('openssl', ['verify', '-CAfile', `${DIR}/tls/ca.crt`, `${DIR}/tls/redis.crt`]);
    const ssh = readFileSync(lab.sshConfig, 'utf8');
    expect(ssh).toMatch(/StrictHostKeyChecking yes/);
    expect(ssh).toContain(`UserKnownHostsFile ${DIR}/known_hosts`);
    expect(readFileSync(`${DIR}/known_hosts`, 'utf8').trim().split('\n')).toHaveLength(3);

    for (const [role, last] of [
      ['target', 2],
      ['loadgen', 3],
      ['redis', 4],
    ] as const) {
      const ns = `${PREFIX}-${role}`;
      const listening = execFileSync('ip', ['netns', 'exec', ns, 'ss', '-ltnH'], { encoding: 'utf8' });
      expect(
        listening
          .trim()
          .split('\n')
          .map((l) => l.trim().split(/\s+/)[3]),
      ).toEqual([`${NET}.${last}:22`]);
      const routes = execFileSync('ip', ['-n', ns, '-4', 'route', 'show'], { encoding: 'utf8' })
        .trim()
        .split('\n');
      expect(routes).toEqual([`${NET}.0/24 dev eth0 proto kernel scope link src ${NET}.${last} `.trim()]);
      const sshd = readFileSync(`${DIR}/hosts/${ns}/sshd_config`, 'utf8');
      expect(sshd).toMatch(/^PasswordAuthentication no$/m);
      expect(sshd).toMatch(new RegExp(`^ListenAddress ${NET}\\.${last}$`, 'm'));
      const who = await execa(
        'ssh',
        ['-F', lab.sshConfig, '-o', 'ConnectTimeout=5', `root@${NET}.${last}`, 'ip', 'netns', 'identify'],
        {
          stdin: 'ignore',
        },
      );
      expect(who.stdout.trim()).toBe(ns);
    }
    expect((await runLab('status', ID, DIR)).match(/ssh ok/g)).toHaveLength(3);
  });

  it('up again replaces the lab cleanly (idempotent) with fresh keys', async () => {
    const oldKey = readFileSync(`${DIR}/keys/client_ed25519.pub`, 'utf8');
    const lab = await labUp(ID);
    expect(lab.upOutput).toMatch(/exists; taking it down first/);
    expect(readFileSync(`${DIR}/keys/client_ed25519.pub`, 'utf8')).not.toBe(oldKey);
    expect(liveLabProcesses()).toHaveLength(3); // one sshd per host, the old ones gone
    expect(
      netnsNames()
        .filter((n) => n.startsWith(`${PREFIX}-`))
        .sort(),
    ).toEqual([`${PREFIX}-loadgen`, `${PREFIX}-redis`, `${PREFIX}-target`]);
  });

  it('down removes namespaces, links, sshds, stray processes and keys; twice is fine', async () => {
    // A process a run left behind inside a host must not survive down.
    const stray = spawn('ip', ['netns', 'exec', `${PREFIX}-target`, 'sleep', '300'], {
      detached: true,
      stdio: 'ignore',
    });
    stray.unref();
    await new Promise((r) => stray.once('spawn', r));
    await waitFor(() =>
      execFileSync('ip', ['netns', 'pids', `${PREFIX}-target`], { encoding: 'utf8' }).includes(
        String(stray.pid),
      ),
    );
    const first = await runLab('down', ID, DIR);
    expect(first).toMatch(/stopping processes in hb12-target/);
    expect(first).toMatch(/deleted bridge hb12-br0/);
    expect(isLive(stray.pid!)).toBe(false);
    expect(leftovers()).toEqual(clean);
    const second = await runLab('down', ID, DIR);
    expect(second).not.toMatch(/deleted|stopping/);
    expect(leftovers()).toEqual(clean);
  });

  it('a second full up/down cycle is just as clean', async () => {
    await labUp(ID);
    expect(leftovers().netns).toHaveLength(3);
    await runLab('down', ID, DIR);
    await runLab('down', ID, DIR);
    expect(leftovers()).toEqual(clean);
  });
});

function isLive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met in time');
}
