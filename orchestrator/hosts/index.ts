// Public surface of the hosts layer: where agents run (this machine or SSH hosts) and how commands reach them.
export { checkNode } from './check-node.ts';
export { HostsFileInvalidError } from './errors.ts';
export type { Host, RedisTlsFiles, RunHosts, StartOptions } from './host.ts';
export { isRedisUrl, loadgenHostName, targetHostName } from './host.ts';
export { createLocalHost, isLocalPidAlive } from './local-host.ts';
export { openHosts } from './open-hosts.ts';
export {
  type HostsFile,
  type LaneEntry,
  type LoadgenEntry,
  laneHostsFile,
  loadHostsFile,
  MAX_LANES,
  parseDestination,
  parseHostsFile,
  type TargetEntry,
} from './hosts-file-schema.ts';
export { shellJoin, shellQuote } from './shell-quote.ts';
export { createSshHost, type SshHost } from './ssh-host.ts';
