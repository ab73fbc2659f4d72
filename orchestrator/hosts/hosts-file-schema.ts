// The hosts file's schema (JSON, validated with zod): which machine plays target, load generator and Redis, over SSH.
// `target` is one host, or a list of them: the replicas of a matrix with `replicas` (replica r = entry r).
// `loadgen` is one host, or a list: the K load generators of a point with `clients` go round-robin over them
// (client i on entry i mod the list's length). `lanes` instead of `target` and `loadgen` lists several of those
// pairs: the run measures one point per lane at a time, in parallel, all of them writing to the one Redis.
import { z } from 'zod';
import { pathText } from './hosts-file-issues.ts';
import { isSafeAbsolutePath, isValidHostName, parseDestination } from './ssh-destination.ts';

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

/** One target host of a validated hosts file. */
export type TargetEntry = z.infer<typeof targetSchema>;
/** One load-generator host of a validated hosts file. */
export type LoadgenEntry = z.infer<typeof hostSchema>;

function isRedisUrl(s: string): boolean {
  try {
    const u = new URL(s);
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    return (u.protocol === 'redis:' || u.protocol === 'rediss:') && isValidHostName(host);
  } catch {
    return false;
  }
}
