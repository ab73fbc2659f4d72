// The hosts file (JSON, validated with zod): which machine plays target, load generator and Redis, over SSH.
// `target` is one host, or a list of them: the replicas of a matrix with `replicas` (replica r = entry r).
// `loadgen` is one host, or a list: the K load generators of a point with `clients` go round-robin over them
// (client i on entry i mod the list's length). `lanes` instead of `target` and `loadgen` lists several of those
// pairs: the run measures one point per lane at a time, in parallel, all of them writing to the one Redis.
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { redactUrl } from '../../runtime/index.ts';
import { HostsFileInvalidError } from './errors.ts';

const USER = /^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** Absolute path, conservative charset: no spaces, quotes, `$`, backticks, `;`, `&`, `|`, globs or `~`. */
const SAFE_PATH = /^\/[A-Za-z0-9._+@,:/-]*$/;

/** True for an IPv4/IPv6 literal or a DNS hostname / ssh_config alias (labels of [A-Za-z0-9-], dots between). */
export function isValidHostName(host: string): boolean {
  if (isIPv4(host) || isIPv6(host)) return true;
  if (host.length === 0 || host.length > 253 || host.startsWith('-')) return false;
  return host.split('.').every((label) => LABEL.test(label));
}

/** Splits and checks an ssh destination `user@host` or `host`; returns null when unsafe or malformed. */
export function parseDestination(dest: string): { user?: string; host: string } | null {
  const at = dest.lastIndexOf('@');
  const user = at >= 0 ? dest.slice(0, at) : undefined;
  let host = at >= 0 ? dest.slice(at + 1) : dest;
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (user !== undefined && !USER.test(user)) return null;
  if (!isValidHostName(host)) return null;
  return user === undefined ? { host } : { user, host };
}

/** True for an absolute path in the safe charset, without `..` segments, that is not `/` itself. */
export function isSafeAbsolutePath(p: string): boolean {
  return SAFE_PATH.test(p) && p.length > 1 && p.length <= 1024 && !p.split('/').some((s) => s === '..');
}

const destination = z.string().refine((s) => parseDestination(s) !== null, {
  message:
    'is not a safe ssh destination; write user@host with user [A-Za-z0-9_.-] and host an IPv4/IPv6 address or hostname (no spaces, no shell metacharacters, no leading "-"), e.g. "root@198.18.0.2"',
});
const workDir = z.string().refine(isSafeAbsolutePath, {
  message:
    'must be an absolute path of letters, digits and . _ - + @ , : / only (no spaces, no shell metacharacters, no ".."), e.g. "/var/tmp/hedgebench"',
});
const address = z.string().refine(isValidHostName, {
  message: 'must be the IPv4/IPv6 address or hostname the other hosts reach this one on, e.g. "198.18.0.2"',
});
const port = z
  .number({ invalid_type_error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be a TCP port from 1 to 65535')
  .max(65535, 'must be a TCP port from 1 to 65535');

const sshHost = { ssh: destination, workDir, address };

/** A host the orchestrator reaches over SSH. */
const hostSchema = z.object(sshHost).strict();
/** A host that also listens on a port (target, or a Redis host). */
const targetSchema = z.object({ ...sshHost, port: port.default(7400) }).strict();
/** A PEM file on this machine, relative to the hosts file's folder or absolute. */
const pemFile = z
  .string({ invalid_type_error: 'must be the path of a PEM file' })
  .min(1, 'must be the path of a PEM file')
  .refine((s) => !/[\0\n\r]/.test(s), { message: 'must be a path (no newlines)' });
/** TLS for a redis-server the orchestrator starts: its certificate and key, and the CA every client verifies it with. */
const redisTlsSchema = z.object({ ca: pemFile, cert: pemFile, key: pemFile }).strict();
const redisHostSchema = z
  .object({ ...sshHost, port: port.default(6379), tls: redisTlsSchema.optional() })
  .strict();
const redisUrlSchema = z
  .object({
    url: z.string().refine(isRedisUrl, {
      message: 'must be a redis:// or rediss:// URL with a valid host, e.g. "redis://198.18.0.4:6379"',
    }),
    /** The CA a rediss:// server's certificate is verified with, when it is not one the system trusts. */
    ca: pemFile.optional(),
  })
  .strict()
  .refine((r) => r.ca === undefined || r.url.startsWith('rediss://'), {
    message: 'a CA verifies TLS only: use a rediss:// URL with "ca", or remove "ca"',
    path: ['ca'],
  });

const TARGETS_EMPTY = 'must list at least one target host, or be one host object';
const targetField = z.union([targetSchema, z.array(targetSchema).min(1, TARGETS_EMPTY)]);
const loadgenField = z.union([
  hostSchema,
  z.array(hostSchema).min(1, 'must list at least one load-generator host, or be one host object'),
]);
/** What runs one point: its target host(s) and its load-generator host(s). */
const laneSchema = z.object({ target: targetField, loadgen: loadgenField }).strict();
/** Lanes a hosts file may list (a lab on one machine makes at most this many). */
export const MAX_LANES = 16;

/** The whole hosts file. */
export const hostsFileSchema = z
  .object({
    sshConfig: z
      .string()
      .min(1)
      .refine((s) => !/[\0\n\r]/.test(s) && !s.startsWith('-'), {
        message: 'must be a path to an ssh_config file (no newlines, no leading "-")',
      })
      .optional(),
    connectTimeoutSeconds: z
      .number({ invalid_type_error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(1, 'must be at least 1 second')
      .max(120, 'must be at most 120 seconds')
      .default(5),
    target: targetField.optional(),
    loadgen: loadgenField.optional(),
    lanes: z
      .array(laneSchema)
      .min(1, 'must list at least one lane { "target": ..., "loadgen": ... }')
      .max(MAX_LANES, `may list at most ${MAX_LANES} lanes`)
      .optional(),
    redis: z.union([redisUrlSchema, redisHostSchema]),
  })
  .strict()
  .superRefine((f, ctx) => {
    const issue = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
    if (f.lanes !== undefined) {
      for (const k of ['target', 'loadgen'] as const) {
        if (f[k] !== undefined)
          issue([k], `is given with "lanes", which names every lane's ${k}; move it into lanes[0]`);
      }
    } else {
      for (const k of ['target', 'loadgen'] as const) {
        if (f[k] === undefined)
          issue(
            [k],
            'is required but missing; add it, or list "lanes" (see docs/lab.md for an example hosts file)',
          );
      }
    }
    // Two targets on one address and port would be one server, whether replicas of one lane or of two lanes.
    // Replicas of one lane may share a workDir (their files are named by replica); two lanes may not, since
    // replica 0 of each writes target.log.
    const lanes = f.lanes ?? (f.target !== undefined ? [{ target: f.target }] : []);
    const all = lanes.flatMap((l, li) =>
      (Array.isArray(l.target) ? l.target : [l.target]).map((t, i) => ({
        t,
        li,
        path: f.lanes
          ? ['lanes', li, 'target', ...(Array.isArray(l.target) ? [i] : [])]
          : ['target', ...(Array.isArray(l.target) ? [i] : [])],
      })),
    );
    all.forEach((a, i) => {
      const j = all.findIndex((b) => b.t.address === a.t.address && b.t.port === a.t.port);
      if (j < i) {
        issue(
          [...a.path, 'port'],
          `is the port of ${pathText(all[j]!.path)} on the same address; give each target host its own address or port`,
        );
        return;
      }
      const k = all.findIndex((b) => b.li !== a.li && b.t.ssh === a.t.ssh && b.t.workDir === a.t.workDir);
      if (k >= 0 && k < i) {
        issue(
          [...a.path, 'workDir'],
          `is the workDir of ${pathText(all[k]!.path)} on the same ssh host, in another lane; give each lane's target its own workDir`,
        );
      }
    });
  });

/** A field path as the errors write it: `lanes[1].target.port`. */
function pathText(path: (string | number)[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i > 0 ? `.${k}` : k)).join('');
}

/** One target host of a validated hosts file. */
export type TargetEntry = z.infer<typeof targetSchema>;
/** One load-generator host of a validated hosts file. */
export type LoadgenEntry = z.infer<typeof hostSchema>;
/**
 * One lane: `target` is its first target host (replica 0) and `targets` every one; `loadgen` its first
 * load-generator host and `loadgens` every one — whichever way the file wrote them.
 */
export interface LaneEntry {
  target: TargetEntry;
  targets: TargetEntry[];
  /** The file listed the targets (`"target": [...]`) rather than naming one host. */
  targetList: boolean;
  loadgen: LoadgenEntry;
  loadgens: LoadgenEntry[];
  /** The file listed the load generators (`"loadgen": [...]`). */
  loadgenList: boolean;
}
/**
 * A validated hosts file (defaults filled in, sshConfig resolved to an absolute path). Its own target and
 * load generator are lane 0's (the one lane of a file without `lanes`); `lanes` has every lane.
 */
export type HostsFile = Omit<z.infer<typeof hostsFileSchema>, 'target' | 'loadgen' | 'lanes'> &
  LaneEntry & {
    lanes: LaneEntry[];
    /** The file listed `lanes` (even one), rather than naming target and loadgen. */
    laneList: boolean;
  };

/** The hosts file as lane `i` alone sees it: that lane's target(s) and load generator, the shared rest. */
export function laneHostsFile(file: HostsFile, i: number): HostsFile {
  return { ...file, ...file.lanes[i]! };
}
/** One SSH host entry of a validated hosts file. */
export type HostEntry = z.infer<typeof hostSchema> & { port?: number };

function isRedisUrl(s: string): boolean {
  try {
    const u = new URL(s);
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    return (u.protocol === 'redis:' || u.protocol === 'rediss:') && isValidHostName(host);
  } catch {
    return false;
  }
}

/** Reads the value at a zod issue path, to show what the user actually wrote. */
function valueAt(input: unknown, path: (string | number)[]): unknown {
  let v: unknown = input;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

function showValue(path: (string | number)[], v: unknown): string {
  if (v === undefined) return 'nothing';
  // A Redis URL may carry a password; never echo it.
  if (path[0] === 'redis' && path[1] === 'url' && typeof v === 'string') return JSON.stringify(redactUrl(v));
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function describeIssue(input: unknown, issue: z.ZodIssue): string {
  const where = issue.path.length ? pathText(issue.path) : '(top level)';
  if (issue.code === 'unrecognized_keys') {
    return `${where}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}; remove them or check the spelling (fields: sshConfig, connectTimeoutSeconds, target, loadgen, redis, or lanes [{target, loadgen}] instead of target and loadgen; a host has ssh, workDir, address, and port for target/redis; redis also tls {ca, cert, key}, or url and ca; target and loadgen may be lists of hosts)`;
  }
  const got = valueAt(input, issue.path);
  if (issue.code === 'custom' && got === undefined) return `${where}: ${issue.message}`;
  if (issue.code === 'invalid_type' && got === undefined) {
    return `${where}: is required but missing; add it (see docs/lab.md for an example hosts file)`;
  }
  return `${where}: got ${showValue(issue.path, got)}, ${issue.message}`;
}

const REDIS_SHAPES =
  'must be either { "url": "redis://host:port" } or { "ssh": "user@host", "workDir": "/abs/path", "address": "...", "port": 6379 }';

const TARGET_SHAPES =
  'must be a host { "ssh": "user@host", "workDir": "/abs/path", "address": "...", "port": 7400 } or a list of such hosts (one per replica)';
const LOADGEN_SHAPES =
  'must be a host { "ssh": "user@host", "workDir": "/abs/path", "address": "..." } or a list of such hosts (the clients of a point go round-robin over them)';

/** Replaces a union failure on `target` or `redis` by the issues of the branch the user evidently meant (url or host). */
function flattenIssues(input: unknown, issues: z.ZodIssue[]): z.ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union') return [issue];
    const value = valueAt(input, issue.path);
    const field = issue.path[issue.path.length - 1];
    const listable = field === 'target' || field === 'loadgen';
    const shapes = field === 'target' ? TARGET_SHAPES : field === 'loadgen' ? LOADGEN_SHAPES : REDIS_SHAPES;
    if (value === null || typeof value !== 'object' || (Array.isArray(value) && !listable)) {
      return [{ ...issue, message: shapes }];
    }
    // `target`, `loadgen`: a host object (branch 0) or a list of them (1); `redis`: a URL (0) or a host (1).
    const branch = listable ? (Array.isArray(value) ? 1 : 0) : 'url' in value ? 0 : 1;
    return flattenIssues(input, issue.unionErrors[branch]?.issues ?? [{ ...issue, message: shapes }]);
  });
}

/** Validates parsed JSON; throws ONE HostsFileInvalidError listing every problem with its field path. */
export function parseHostsFile(input: unknown, source = 'hosts file'): HostsFile {
  const r = hostsFileSchema.safeParse(input);
  if (!r.success) {
    const lines = flattenIssues(input, r.error.issues).map((i) => `  - ${describeIssue(input, i)}`);
    throw new HostsFileInvalidError(`${source} is invalid:\n${lines.join('\n')}`, { cause: r.error });
  }
  const { target, loadgen, lanes, ...rest } = r.data;
  const laneList = lanes !== undefined;
  const entries = (lanes ?? [{ target: target!, loadgen: loadgen! }]).map((l): LaneEntry => {
    const list = Array.isArray(l.target) ? l.target : [l.target];
    const gens = Array.isArray(l.loadgen) ? l.loadgen : [l.loadgen];
    return {
      target: list[0]!,
      targets: list,
      targetList: Array.isArray(l.target),
      loadgen: gens[0]!,
      loadgens: gens,
      loadgenList: Array.isArray(l.loadgen),
    };
  });
  return { ...rest, ...entries[0]!, lanes: entries, laneList };
}

/** Reads, parses and validates a hosts file; a relative sshConfig is resolved against the file's folder. */
export async function loadHostsFile(path: string): Promise<HostsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new HostsFileInvalidError(
      `hosts file ${path} cannot be read (${(err as Error).message}); pass --hosts with the path of an existing JSON file, or omit --hosts to run everything on this machine`,
      { cause: err },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HostsFileInvalidError(
      `hosts file ${path} is not valid JSON (${(err as Error).message}); fix the syntax`,
      { cause: err },
    );
  }
  const file = parseHostsFile(json, `hosts file ${path}`);
  // ssh (or TLS) would fail later in its own words, after the run folder exists: say it now.
  const readable = async (field: string, p: string, what: string): Promise<string> => {
    const abs = resolve(dirname(path), p);
    try {
      await access(abs, constants.R_OK);
    } catch (err) {
      throw new HostsFileInvalidError(
        `hosts file ${path} is invalid:\n  - ${field}: ${abs} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); point it at an existing ${what} (relative to the hosts file), or remove the field`,
        { cause: err },
      );
    }
    return abs;
  };
  if (file.sshConfig) file.sshConfig = await readable('sshConfig', file.sshConfig, 'ssh_config file');
  const r = file.redis;
  if ('url' in r) {
    if (r.ca !== undefined) r.ca = await readable('redis.ca', r.ca, 'PEM file');
  } else if (r.tls) {
    for (const k of ['ca', 'cert', 'key'] as const) {
      r.tls[k] = await readable(`redis.tls.${k}`, r.tls[k], 'PEM file');
    }
  }
  return file;
}
