// agents.json and the reaper, against real processes on a LocalHost: a recorded agent is stopped, a pid
// now used by an unrelated program is left alone.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRegistry, reapAgents } from '../../orchestrator/agents/agent-registry.ts';
import { createLocalHost, type Host } from '../../orchestrator/hosts/index.ts';
import { rmTemp, tempDir } from './fixture.ts';

let dir: string;
let host: Host;
const started: number[] = [];

beforeAll(() => {
  dir = tempDir();
  host = createLocalHost({ name: 'loadgen', workDir: join(dir, 'work') });
});

afterAll(async () => {
  for (const pid of started) await host.stop(pid, { timeoutMs: 500 }).catch(() => {});
  rmTemp(dir);
});

describe('reapAgents', () => {
  it('stops recorded agents that still run, and only those whose command line matches', async () => {
    const a = await host.start(['sleep', '60'], { name: 'agent-a' });
    const b = await host.start(['sleep', '61'], { name: 'agent-b' });
    started.push(a.pid, b.pid);
    const path = join(dir, 'agents.json');
    const reg = new AgentRegistry(path);
    reg.add({ role: 'loadgen', host: 'loadgen', pid: a.pid, match: 'sleep 60' });
    // Same pid recorded with another program's name: a reused pid must not be killed.
    reg.add({ role: 'target', host: 'loadgen', pid: b.pid, match: 'target-server' });
    // A host this run does not know (yet): kept for a later attempt.
    reg.add({ role: 'redis', host: 'elsewhere', pid: 12345, match: 'redis-server' });

    const reaped = await reapAgents(new AgentRegistry(path), new Map([['loadgen', host]]));
    expect(reaped.map((r) => r.pid)).toEqual([a.pid]);
    expect(await host.isAlive(a.pid)).toBe(false);
    expect(await host.isAlive(b.pid)).toBe(true);
    expect(new AgentRegistry(path).list().map((r) => r.host)).toEqual(['elsewhere']);
  });
});
