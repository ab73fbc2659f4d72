// openHosts: turns "no hosts file" (everything local) or a hosts file (SSH) into the Hosts of a run: a
// target per replica, the load generator and Redis.
import { join, resolve } from 'node:path';
import { RUN_FILES } from '../../contract/index.ts';
import { redactUrl } from '../../runtime/index.ts';
import { type Host, loadgenHostName, type RedisUrl, type RunHosts, targetHostName } from './host.ts';
import { type HostsFile, laneHostsFile } from './hosts-file.ts';
import type { LoadgenEntry } from './hosts-file-schema.ts';
import { loadHostsFile } from './load-hosts-file.ts';
import { createLocalHost } from './local-host.ts';
import { createSshHost } from './ssh-host.ts';

/**
 * Opens the hosts of a run (of one of its lanes). Without a hosts file every role is a LocalHost on 127.0.0.1
 * with its own working directory under `<runDir>/work/<name>`; with one (a path, or an already validated
 * object) every role is an SshHost. `replicas` target hosts are opened (locally, as many working directories;
 * with a file, the lane's first `replicas` targets). Hosts of lane i > 0 are named `lane<i>-<role>`, so
 * every lane has its own names (the agents' registry, local working directories). Nothing connects yet:
 * the first command does (call checkNode on each to fail early).
 */
export async function openHosts(
  hostsFile: string | HostsFile | undefined,
  runDir: string,
  replicas = 1,
  lane = 0,
): Promise<RunHosts> {
  const name = (role: string) => (lane === 0 ? role : `lane${lane}-${role}`);
  if (hostsFile === undefined) return localHosts(runDir, replicas, name);
  const whole = typeof hostsFile === 'string' ? await loadHostsFile(hostsFile) : hostsFile;
  const file = laneHostsFile(whole, lane);
  const common = { sshConfig: file.sshConfig, connectTimeoutSeconds: file.connectTimeoutSeconds };
  const entries = file.targets.slice(0, Math.max(1, replicas));
  const targets = entries.map((t, r) =>
    createSshHost({ name: name(targetHostName(r)), destination: t.ssh, ...t, ...common }),
  );
  const target = targets[0];
  const loadgens = file.loadgens.map((g, i) =>
    createSshHost({ name: name(loadgenHostName(i)), destination: g.ssh, ...g, ...common }),
  );
  const r = file.redis;
  const redis: RedisUrl | Host =
    'url' in r ? { url: r.url } : createSshHost({ name: 'redis', destination: r.ssh, ...r, ...common });
  const hosts = [...targets, ...loadgens, ...('url' in r ? [] : [redis as Host])];
  const describeLoadgen = (g: LoadgenEntry) => ({ ssh: g.ssh, address: g.address, workDir: g.workDir });
  const describeTarget = (t: HostsFile['target']) => ({
    ssh: t.ssh,
    address: t.address,
    workDir: t.workDir,
    port: t.port,
  });
  return {
    mode: 'ssh',
    target,
    targets,
    loadgen: loadgens[0],
    loadgens,
    redis,
    targetPort: file.target.port,
    targetPorts: entries.map((t) => t.port),
    redisPort: 'url' in r ? undefined : r.port,
    ...('url' in r ? (r.ca ? { redisTls: { ca: r.ca } } : {}) : r.tls ? { redisTls: r.tls } : {}),
    describe: () => ({
      mode: 'ssh',
      sshConfig: file.sshConfig,
      connectTimeoutSeconds: file.connectTimeoutSeconds,
      // A file that names one target host is described as before; a list, as the list of those used.
      target: file.targetList ? entries.map(describeTarget) : describeTarget(file.target),
      loadgen: file.loadgenList ? file.loadgens.map(describeLoadgen) : describeLoadgen(file.loadgen),
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

function localHosts(runDir: string, replicas: number, name: (role: string) => string): RunHosts {
  const work = join(resolve(runDir), RUN_FILES.work);
  const host = (role: string) => createLocalHost({ name: name(role), workDir: join(work, name(role)) });
  const targets = Array.from({ length: Math.max(1, replicas) }, (_, r) => host(targetHostName(r)));
  const target = targets[0];
  const loadgen = host(loadgenHostName(0));
  const redis = host('redis');
  return {
    mode: 'local',
    target,
    targets,
    loadgen,
    loadgens: [loadgen],
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
