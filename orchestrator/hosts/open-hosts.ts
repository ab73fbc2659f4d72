// openHosts: turns "no hosts file" (everything local) or a hosts file (SSH) into the three Hosts of a run.
import { join, resolve } from 'node:path';
import { redactUrl } from '../../runtime/index.ts';
import type { Host, RedisUrl, RunHosts } from './host.ts';
import { createLocalHost } from './local-host.ts';
import { type HostsFile, loadHostsFile } from './schema.ts';
import { createSshHost } from './ssh-host.ts';

/**
 * Opens the hosts of a run. Without a hosts file every role is a LocalHost on 127.0.0.1 with its own working
 * directory under `<runDir>/work/<role>`; with one (a path, or an already validated object) every role is an
 * SshHost. Nothing connects yet: the first command does (call checkNode on each to fail early).
 */
export async function openHosts(
  hostsFile: string | HostsFile | undefined,
  runDir: string,
): Promise<RunHosts> {
  if (hostsFile === undefined) return localHosts(runDir);
  const file = typeof hostsFile === 'string' ? await loadHostsFile(hostsFile) : hostsFile;
  const common = { sshConfig: file.sshConfig, connectTimeoutSeconds: file.connectTimeoutSeconds };
  const target = createSshHost({ name: 'target', destination: file.target.ssh, ...file.target, ...common });
  const loadgen = createSshHost({
    name: 'loadgen',
    destination: file.loadgen.ssh,
    ...file.loadgen,
    ...common,
  });
  const r = file.redis;
  const redis: RedisUrl | Host =
    'url' in r ? { url: r.url } : createSshHost({ name: 'redis', destination: r.ssh, ...r, ...common });
  const hosts = [target, loadgen, ...('url' in r ? [] : [redis as Host])];
  return {
    mode: 'ssh',
    target,
    loadgen,
    redis,
    targetPort: file.target.port,
    redisPort: 'url' in r ? undefined : r.port,
    ...('url' in r ? (r.ca ? { redisTls: { ca: r.ca } } : {}) : r.tls ? { redisTls: r.tls } : {}),
    describe: () => ({
      mode: 'ssh',
      sshConfig: file.sshConfig,
      connectTimeoutSeconds: file.connectTimeoutSeconds,
      target: {
        ssh: file.target.ssh,
        address: file.target.address,
        workDir: file.target.workDir,
        port: file.target.port,
      },
      loadgen: { ssh: file.loadgen.ssh, address: file.loadgen.address, workDir: file.loadgen.workDir },
      redis:
        'url' in r
          ? { url: redactUrl(r.url), ...(r.ca ? { ca: r.ca } : {}) }
          : {
              ssh: r.ssh,
              address: r.address,
              workDir: r.workDir,
              port: r.port,
              ...(r.tls ? { tls: true } : {}),
            },
    }),
    close: async () => {
      await Promise.all(hosts.map((h) => h.close()));
    },
  };
}

function localHosts(runDir: string): RunHosts {
  const work = join(resolve(runDir), 'work');
  const target = createLocalHost({ name: 'target', workDir: join(work, 'target') });
  const loadgen = createLocalHost({ name: 'loadgen', workDir: join(work, 'loadgen') });
  const redis = createLocalHost({ name: 'redis', workDir: join(work, 'redis') });
  return {
    mode: 'local',
    target,
    loadgen,
    redis,
    describe: () => ({
      mode: 'local',
      target: { address: target.address, workDir: target.workDir },
      loadgen: { address: loadgen.address, workDir: loadgen.workDir },
      redis: { address: redis.address, workDir: redis.workDir },
    }),
    close: async () => {},
  };
}
