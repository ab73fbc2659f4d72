// The hosts file's problems in its user's words: each with its field path and the value written (a Redis
// URL's password redacted), and a union's failure replaced by the issues of the branch the user meant.
import type { z } from 'zod';
import { redactUrl } from '../../runtime/index.ts';

/** A field path as the errors write it: `lanes[1].target.port`. */
export function pathText(path: (string | number)[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i > 0 ? `.${k}` : k)).join('');
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

/** One issue as the error list writes it: where, what was written, and what is wrong. */
export function describeIssue(input: unknown, issue: z.ZodIssue): string {
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
export function flattenIssues(input: unknown, issues: z.ZodIssue[]): z.ZodIssue[] {
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
