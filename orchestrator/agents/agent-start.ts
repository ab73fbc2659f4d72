// Starting an agent so it can never be lost: it is recorded in agents.json (with the lease token it
// carries) before it starts, started under the lease guard, and its pid recorded once known.

import type { Host, StartOptions } from '../hosts/index.ts';
import type { AgentRecord, AgentRegistry } from './agent-registry.ts';
import { faultPoint, holdEnv } from './fault-point.ts';

/** Starts `argv` on `host` as an agent of `role`; returns its pid. `match` names it on its command line. */
export async function startAgent(
  host: Host,
  role: AgentRecord['role'],
  argv: string[],
  opts: StartOptions & { match: string },
  registry: AgentRegistry,
): Promise<number> {
  const lease = registry.lease;
  const rec = registry.planned({ role, host: host.name, match: opts.match, token: lease?.token });
  faultPoint(`agent-recorded:${role}`);
  const hold = holdEnv(`agent-start:${role}`);
  const env = hold === null ? opts.env : { ...opts.env, ...hold };
  let pid: number;
  try {
    ({ pid } = await host.start(lease ? lease.guard(host, argv) : argv, { name: opts.name, env }));
  } catch (err) {
    registry.forget(rec);
    throw err;
  }
  faultPoint(`agent-started:${role}`);
  registry.started(rec, pid);
  return pid;
}
