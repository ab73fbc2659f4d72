// Public surface of the hosts layer: where agents run (this machine or SSH hosts) and how commands reach them.
export { checkNode } from './check-node.ts';
export { HostsFileInvalidError } from './errors.ts';
export type { Host, RedisTlsFiles, RunHosts, StartOptions } from './host.ts';
export { isRedisUrl } from './host.ts';
export { type HostsFile, laneHostsFile, parseHostsFile } from './hosts-file.ts';
export { MAX_LANES } from './hosts-file-schema.ts';
export { loadHostsFile } from './load-hosts-file.ts';
export { createLocalHost, isLocalPidAlive } from './local-host.ts';
export { openHosts } from './open-hosts.ts';
export { shellJoin, shellQuote } from './shell-quote.ts';
export { parseDestination } from './ssh-destination.ts';
export { createSshHost, type SshHost } from './ssh-host.ts';
