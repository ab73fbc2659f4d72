// Checks on names a caller hands a Host (file names, process names, env names) before they reach a file system or shell.
import { HostArgumentError } from './errors.ts';

const FILE_SEGMENT = /^(?!\.\.?$)[A-Za-z0-9._+@,:][A-Za-z0-9._+@,:-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks a relative file name inside workDir (segments of safe characters, no `.`/`..` segment, no leading `-`). */
export function checkFileName(host: string, name: string): string {
  const ok = name.length > 0 && name.length <= 255 && name.split('/').every((s) => FILE_SEGMENT.test(s));
  if (!ok) {
    throw new HostArgumentError(
      `host ${host}: file name ${JSON.stringify(name)} is not allowed; use a relative name of letters, digits and . _ - + @ , : (segments separated by "/", none "." or ".." or starting with "-")`,
    );
  }
  return name;
}

/** Checks an environment variable name for Host.start. */
export function checkEnvName(host: string, name: string): string {
  if (!ENV_NAME.test(name)) {
    throw new HostArgumentError(
      `host ${host}: environment variable name ${JSON.stringify(name)} is not allowed; use [A-Za-z_][A-Za-z0-9_]*`,
    );
  }
  return name;
}

/** Checks a pid handed to stop/isAlive: a positive integer (never 0 or -1, which signal whole groups). */
export function checkPid(host: string, pid: number): number {
  if (!Number.isSafeInteger(pid) || pid <= 1) {
    throw new HostArgumentError(
      `host ${host}: pid ${pid} is not a process id; pass the pid start() returned`,
    );
  }
  return pid;
}

/** Checks argv: at least the program, and no NUL bytes (which no OS can pass). */
export function checkArgv(host: string, argv: readonly string[]): void {
  if (argv.length === 0 || argv[0] === '') {
    throw new HostArgumentError(`host ${host}: empty command; pass argv as [program, ...args]`);
  }
  for (const a of argv) {
    if (typeof a !== 'string' || a.includes('\0')) {
      throw new HostArgumentError(
        `host ${host}: argument ${JSON.stringify(a)} is not a string without NUL bytes`,
      );
    }
  }
}
