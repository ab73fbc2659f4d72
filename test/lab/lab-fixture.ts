// Test fixture for the SSH lab: brings a lab up for a test file (own HB_LAB_ID, own DIR) and always down again.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

/** Repository root. */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The lab script. */
export const LAB_SH = join(REPO, 'scripts/lab.sh');

/**
 * Lab ids in use by test files (each test file gets its own id, so parallel test files never share namespaces).
 * Id 0 is the user's lab (scripts/lab.sh up without HB_LAB_ID) and is never used by tests.
 */
export const LAB_IDS = {
  sshHost: 11,
  labScript: 12,
  labScriptSecond: 13,
  labFolder: 14,
  orchestratorE2e: 20,
  leaseE2e: 22,
  replicasE2e: 23,
  lanesE2e: 24,
} as const;

/** A running lab. */
export interface Lab {
  id: number;
  dir: string;
  hostsFile: string;
  sshConfig: string;
  /** e.g. "198.18.11" */
  net: string;
  /** Namespace name prefix, e.g. "hb11". */
  prefix: string;
  addresses: { target: string; loadgen: string; redis: string };
  /** Output of `lab.sh up`. */
  upOutput: string;
  down(): Promise<string>;
}

/** Why the lab cannot run here (not root, no `ip netns`, no sshd), or undefined when it can. */
export function labSkipReason(): string | undefined {
  if (process.platform !== 'linux')
    return `the SSH lab needs Linux network namespaces; this is ${process.platform}`;
  if (process.getuid?.() !== 0)
    return 'the SSH lab needs root (it creates network namespaces); run the tests as root';
  try {
    execFileSync('ip', ['netns', 'list'], { stdio: 'ignore' });
  } catch {
    return '`ip netns` does not work here (iproute2 missing or no namespace support)';
  }
  if (!existsSync('/usr/sbin/sshd')) return '/usr/sbin/sshd is missing (apt-get install openssh-server)';
  return undefined;
}

/** Prints the skip reason so that nobody mistakes a skipped end-to-end suite for a passing one. */
export function warnLabSkipped(suite: string, reason: string): void {
  const bar = '!'.repeat(100);
  console.warn(`\n${bar}\n!! SKIPPING ${suite}: ${reason}\n${bar}\n`);
}

/**
 * Runs scripts/lab.sh with an id and DIR (and `targets` target hosts, or `lanes` lanes); resolves with its
 * output, rejects with it on a non-zero exit.
 */
export async function runLab(
  cmd: 'up' | 'down' | 'status',
  id: number,
  dir: string,
  targets = 1,
  lanes = 1,
): Promise<string> {
  const r = await execa(LAB_SH, [cmd, dir], {
    env: {
      HB_LAB_ID: String(id),
      ...(targets > 1 ? { HB_LAB_TARGETS: String(targets) } : {}),
      ...(lanes > 1 ? { HB_LAB_LANES: String(lanes) } : {}),
    },
    reject: false,
    all: true,
    timeout: 60_000,
  });
  if (r.exitCode !== 0 && cmd !== 'status') {
    throw new Error(`scripts/lab.sh ${cmd} ${dir} (HB_LAB_ID=${id}) exited ${r.exitCode}:\n${r.all}`);
  }
  return String(r.all);
}

/**
 * Where test labs keep their keys. sshd (StrictModes) refuses keys below a folder others can write to, so a
 * checkout under /tmp (as CI may make) cannot use its own .lab/; such checkouts use a root-only folder in
 * /var/lib named after the checkout, so two checkouts never share one.
 */
export const LAB_ROOT = ancestorsPrivate(REPO)
  ? join(REPO, '.lab')
  : join('/var/lib/hedgebench-lab', createHash('sha256').update(REPO).digest('hex').slice(0, 12));

/** True when no folder from `dir` up to / is writable by group or others. */
function ancestorsPrivate(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(d) && (statSync(d).mode & 0o022) !== 0) return false;
    if (d === dirname(d)) return true;
  }
}

/** The lab's DIR for a test id (see LAB_ROOT). */
export function labDir(id: number): string {
  return join(LAB_ROOT, `test-${id}`);
}

/**
 * Brings up a lab with its own id (and `targets` target hosts, or `lanes` lanes); call lab.down() in afterAll
 * (it is safe even when up failed part-way).
 */
export async function labUp(id: number, targets = 1, lanes = 1): Promise<Lab> {
  const dir = labDir(id);
  const net = `198.18.${id}`;
  const upOutput = await runLab('up', id, dir, targets, lanes);
  return {
    id,
    dir,
    hostsFile: join(dir, 'hosts.json'),
    sshConfig: join(dir, 'ssh_config'),
    net,
    prefix: `hb${id}`,
    addresses: { target: `${net}.2`, loadgen: `${net}.3`, redis: `${net}.4` },
    upOutput,
    down: () => runLab('down', id, dir),
  };
}
