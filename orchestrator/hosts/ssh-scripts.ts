// The POSIX sh snippets SshHost runs remotely; every interpolated value goes through shellQuote or is a checked number.
import { posix } from 'node:path';
import { shellQuote as q, shellJoin } from './shell-quote.ts';

/** Defines `alive`: the pid exists and is not a zombie (orphans on a host may never be reaped). */
function aliveFn(pid: number): string {
  return [
    `p=${pid}`,
    'alive() {',
    '  if [ -d /proc/self ]; then',
    '    s=$(cat /proc/$p/stat 2>/dev/null) || return 1',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a sh parameter expansion, not a JS template
    '    s=${s##*) }',
    '    case $s in Z*|X*) return 1;; esac',
    '    return 0',
    '  fi',
    '  kill -0 $p 2>/dev/null',
    '}',
  ].join('\n');
}

/**
 * Starts argv detached: setsid gives it its own session (it survives the ssh session and stop() can signal its
 * group); output appends to the log; the pid echoed is the program's own, since setsid does not fork when the
 * caller is not a group leader (a background job of a non-interactive sh never is).
 */
export function startScript(argv: readonly string[], logName: string, env: [string, string][]): string {
  return [
    'set -e',
    'command -v setsid >/dev/null 2>&1 || { echo "setsid (util-linux) is missing on this host" >&2; exit 3; }',
    `command -v ${q(argv[0])} >/dev/null 2>&1 || { echo ${q(`${argv[0]}: command not found on this host`)} >&2; exit 127; }`,
    ...env.map(([k, v]) => `${k}=${q(v)}; export ${k}`),
    `setsid ${shellJoin(argv)} </dev/null >>${q(logName)} 2>&1 &`,
    'echo $!',
    '',
  ].join('\n');
}

/** SIGTERM to the process group (or the pid), poll for up to ms, then SIGKILL; exit 0 when it is gone. */
export function stopScript(pid: number, ms: number): string {
  const polls = Math.max(1, Math.ceil(ms / 50));
  return [
    aliveFn(pid),
    'alive || exit 0',
    'kill -s TERM -- -$p 2>/dev/null || kill -s TERM $p 2>/dev/null || true',
    'n=0',
    `while alive && [ $n -lt ${polls} ]; do sleep 0.05; n=$((n+1)); done`,
    'alive || exit 0',
    'kill -s KILL -- -$p 2>/dev/null || kill -s KILL $p 2>/dev/null || true',
    'n=0',
    'while alive && [ $n -lt 40 ]; do sleep 0.05; n=$((n+1)); done',
    'alive && { echo "pid $p survived SIGKILL" >&2; exit 1; }',
    'exit 0',
    '',
  ].join('\n');
}

/** Exit 0 when the pid is alive, 1 when not. */
export function isAliveScript(pid: number): string {
  return `${aliveFn(pid)}\nalive && exit 0\nexit 1\n`;
}

/** A command line that writes stdin to path with the mode set before any byte lands (umask 077, then chmod). */
export function writeFileScript(path: string, mode: number): string {
  const tmp = `${path}.tmp-${process.pid}`;
  const m = (mode & 0o7777).toString(8).padStart(4, '0');
  return `umask 077 && mkdir -p -- ${q(posix.dirname(path))} && cat > ${q(tmp)} && chmod ${m} -- ${q(tmp)} && mv -f -- ${q(tmp)} ${q(path)}`;
}
