// Errors of the hosts layer: each has a stable code, names the host or field, the value and the fix.

import { HedgebenchError } from '../../library/index.ts';

/** Base class of every hosts-layer error; `code` is stable and safe to match on. */
class HostsError extends HedgebenchError {}

/** The hosts file is missing, not JSON, or fails validation (one error for the whole file). */
export class HostsFileInvalidError extends HostsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_HOSTS_INVALID', message, options);
  }
}

/** ssh could not reach the host within the connect timeout (DNS, no route, refused, timed out). */
export class SshUnreachableError extends HostsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_SSH_UNREACHABLE', message, options);
  }
}

/** ssh reached the host but could not log in (BatchMode: no key accepted, host key not trusted). */
export class SshAuthError extends HostsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_SSH_AUTH', message, options);
  }
}

/** A transfer or control command failed in a way that is neither unreachable nor auth. */
export class HostCommandError extends HostsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_HOST_COMMAND', message, options);
  }
}

/** A command ran longer than its timeoutMs and was killed. */
export class HostTimeoutError extends HostsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_HOST_TIMEOUT', message, options);
  }
}

/** A file name, process name or env name given to a Host is not in the safe charset. */
export class HostArgumentError extends HostsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_HOST_ARGUMENT', message, options);
  }
}

/** Node.js is missing on a host or older than 20. */
export class NodeMissingError extends HostsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_NODE_MISSING', message, options);
  }
}
