// Public surface of the hosts layer: where agents run (this machine or SSH hosts) and how commands reach them.
export { checkNode, MIN_NODE_MAJOR } from './check-node.ts';
export {
  HostArgumentError,
  HostCommandError,
  HostsError,
  HostsFileInvalidError,
  HostTimeoutError,
  NodeMissingError,
  SshAuthError,
  SshUnreachableError,
} from './errors.ts';
export type { ExecOptions, ExecResult, Host, RedisUrl, RunHosts, StartOptions, StopOptions } from './host.ts';
export { isRedisUrl } from './host.ts';
export { createLocalHost, isLocalPidAlive, type LocalHostOptions } from './local-host.ts';
export { openHosts } from './open-hosts.ts';
export {
  type HostsFile,
  hostsFileSchema,
  isSafeAbsolutePath,
  isValidHostName,
  loadHostsFile,
  parseDestination,
  parseHostsFile,
} from './schema.ts';
export { shellJoin, shellQuote } from './shell-quote.ts';
export { createSshHost, type SshHost, type SshHostOptions } from './ssh-host.ts';
