// What a hosts file may name on an SSH host: its destination (`user@host`), host names and addresses, and
// absolute paths, each in a conservative charset so that none reaches ssh or a shell as an option or a
// metacharacter.
import { isIPv4, isIPv6 } from 'node:net';

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
