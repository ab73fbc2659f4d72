// The hosts file schema: good files parse with defaults; bad ones give ONE clear error naming field, value and fix.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HostsFileInvalidError,
  laneHostsFile,
  loadHostsFile,
  parseDestination,
  parseHostsFile,
} from '../../../orchestrator/hosts/index.ts';

const good = () => ({
  sshConfig: 'ssh_config',
  target: { ssh: 'root@198.18.0.2', workDir: '/var/tmp/hb/target', address: '198.18.0.2', port: 7400 },
  loadgen: { ssh: 'root@198.18.0.3', workDir: '/var/tmp/hb/loadgen', address: '198.18.0.3' },
  redis: { ssh: 'root@198.18.0.4', workDir: '/var/tmp/hb/redis', address: '198.18.0.4' },
});

/** The single error a bad file gives. */
function errorOf(input: unknown): HostsFileInvalidError {
  try {
    parseHostsFile(input, 'hosts.json');
  } catch (e) {
    expect(e).toBeInstanceOf(HostsFileInvalidError);
    return e as HostsFileInvalidError;
  }
  throw new Error('expected the hosts file to be rejected');
}

describe('hosts file schema', () => {
  it('accepts a good file and fills defaults', () => {
    const f = parseHostsFile(good());
    expect(f.connectTimeoutSeconds).toBe(5);
    expect(f.redis).toMatchObject({ port: 6379 });
    const withUrl = parseHostsFile({ ...good(), redis: { url: 'rediss://:pw@198.18.0.4:6380/0' } });
    expect(withUrl.redis).toEqual({ url: 'rediss://:pw@198.18.0.4:6380/0' });
    expect(
      parseHostsFile({ ...good(), target: { ...good().target, ssh: 'deploy@[::1]', port: undefined } }).target
        .port,
    ).toBe(7400);
  });

  it.each([
    ['target.ssh', 'root@host;touch /tmp/x'],
    ['target.ssh', 'root@$(touch /tmp/x)'],
    ['target.ssh', 'root@`id`'],
    ['target.ssh', '-oProxyCommand=touch /tmp/x'],
    ['target.ssh', 'root@-oProxyCommand=x'],
    ['target.ssh', 'ro ot@host'],
    ['target.ssh', 'root@host name'],
    ['target.ssh', 'r$oot@host'],
    ['target.ssh', "root'@host"],
    ['target.ssh', 'root@host|x'],
    ['target.ssh', 'root@'],
    ['target.ssh', 'root@ho\nst'],
    ['loadgen.workDir', 'relative/path'],
    ['loadgen.workDir', '/tmp/a b'],
    ['loadgen.workDir', '/tmp/$(touch x)'],
    ['loadgen.workDir', '/tmp/`id`'],
    ['loadgen.workDir', '/tmp/a;b'],
    ['loadgen.workDir', '/tmp/../etc'],
    ['loadgen.workDir', '/'],
    ['loadgen.workDir', '~/hb'],
    ['loadgen.address', '198.18.0.3; rm -rf /'],
    ['loadgen.address', ''],
    ['target.port', 0],
    ['target.port', 65536],
    ['target.port', 7400.5],
    ['target.port', '7400'],
  ])('rejects %s = %j with one error naming the field, the value and the fix', (field, value) => {
    const input = good() as unknown as Record<string, Record<string, unknown>>;
    const [role, key] = field.split('.');
    input[role][key] = value;
    const e = errorOf(input);
    expect(e.code).toBe('HB_HOSTS_INVALID');
    expect(e.message).toContain(`- ${field}: got ${JSON.stringify(value)}`);
    expect(e.message).toMatch(/must|write|use/);
  });

  it('names a missing field, an unknown field and a bad redis entry', () => {
    const { loadgen: _, ...noLoadgen } = good();
    expect(errorOf(noLoadgen).message).toContain('loadgen: is required but missing');
    expect(errorOf({ ...good(), targte: {} }).message).toMatch(/unknown field\(s\) "targte"/);
    expect(errorOf({ ...good(), redis: { url: 'http://x' } }).message).toContain('redis.url: got "http://x"');
    expect(errorOf({ ...good(), redis: { ssh: 'root@h', workDir: 'x', address: 'h' } }).message).toContain(
      'redis.workDir: got "x"',
    );
    expect(errorOf({ ...good(), redis: 'localhost' }).message).toContain(
      'redis: got "localhost", must be either',
    );
    expect(errorOf([]).message).toContain('(top level)');
  });

  it('takes one target host, or a list of them (one per replica), keeping a one-host file as it was', () => {
    const one = parseHostsFile(good());
    expect(one.targets).toEqual([one.target]);
    expect(one.targetList).toBe(false);
    const second = { ...good().target, ssh: 'root@198.18.0.5', address: '198.18.0.5' };
    const two = parseHostsFile({ ...good(), target: [good().target, { ...second, port: undefined }] });
    expect(two.targetList).toBe(true);
    expect(two.target).toEqual(good().target);
    expect(two.targets.map((t) => [t.address, t.port])).toEqual([
      ['198.18.0.2', 7400],
      ['198.18.0.5', 7400],
    ]);
  });

  it('names the bad field of a listed target host, an empty list, and two targets on one address and port', () => {
    const second = { ...good().target, ssh: 'root@host;x', address: '198.18.0.5' };
    const bad = errorOf({ ...good(), target: [good().target, second] }).message;
    expect(bad).toContain('- target[1].ssh: got "root@host;x"');
    expect(bad.split('\n')).toHaveLength(2);
    expect(errorOf({ ...good(), target: [] }).message).toContain(
      'target: got [], must list at least one target host',
    );
    expect(errorOf({ ...good(), target: 'h' }).message).toContain('target: got "h", must be a host');
    const same = errorOf({ ...good(), target: [good().target, { ...good().target }] }).message;
    expect(same).toContain('- target[1].port: got 7400, is the port of target[0] on the same address');
    const otherPort = parseHostsFile({
      ...good(),
      target: [good().target, { ...good().target, port: 7402 }],
    });
    expect(otherPort.targets).toHaveLength(2);
  });

  it('takes lanes instead of target and loadgen, and refuses two lanes on one target', () => {
    const { target, loadgen, ...rest } = good();
    const lane1 = {
      target: { ...target, ssh: 'root@198.18.0.22', address: '198.18.0.22' },
      loadgen: { ...loadgen, ssh: 'root@198.18.0.23', address: '198.18.0.23' },
    };
    const f = parseHostsFile({ ...rest, lanes: [{ target, loadgen }, lane1] });
    expect(f.laneList).toBe(true);
    expect(f.lanes.map((l) => [l.target.address, l.loadgen.address])).toEqual([
      ['198.18.0.2', '198.18.0.3'],
      ['198.18.0.22', '198.18.0.23'],
    ]);
    // Lane 0 is the file's own target and load generator, so one-lane code reads it as before.
    expect(f.target).toEqual(f.lanes[0]!.target);
    expect(laneHostsFile(f, 1).loadgen.address).toBe('198.18.0.23');
    // A file without lanes is one lane.
    expect(parseHostsFile(good()).lanes).toHaveLength(1);
    expect(parseHostsFile(good()).laneList).toBe(false);

    expect(errorOf({ ...good(), lanes: [{ target, loadgen }] }).message).toContain(
      'is given with "lanes", which names every lane\'s target; move it into lanes[0]',
    );
    expect(errorOf({ ...rest }).message).toContain('target: is required but missing');
    expect(errorOf({ ...rest, lanes: [] }).message).toContain('lanes: got [], must list at least one lane');
    const same = errorOf({
      ...rest,
      lanes: [
        { target, loadgen },
        { ...lane1, target },
      ],
    }).message;
    expect(same).toContain(
      '- lanes[1].target.port: got 7400, is the port of lanes[0].target on the same address',
    );
    const shared = errorOf({
      ...rest,
      lanes: [
        { target, loadgen },
        { ...lane1, target: { ...target, port: 7401 } },
      ],
    }).message;
    expect(shared).toContain('lanes[1].target.workDir');
    expect(shared).toContain("give each lane's target its own workDir");
    expect(errorOf({ ...rest, lanes: [{ target, loadgen: { ...loadgen, ssh: 'x;y' } }] }).message).toContain(
      'lanes[0].loadgen.ssh: got "x;y"',
    );
  });

  it('never echoes a Redis password in an error', () => {
    const e = errorOf({ ...good(), redis: { url: 'redis://user:s3cret@bad host:6379' } });
    expect(e.message).not.toContain('s3cret');
  });

  it('turns any JSON into either a valid file or one HostsFileInvalidError (property)', () => {
    const hostish = fc.oneof(
      fc.constantFrom('root@198.18.0.2', 'a@b', '198.18.0.2', 'x;y', '$(id)', '-oX', ''),
      fc.string({ maxLength: 20 }),
    );
    const entry = fc.record(
      {
        ssh: hostish,
        workDir: fc.oneof(fc.constant('/tmp/hb'), fc.string({ maxLength: 12 })),
        address: hostish,
        port: fc.oneof(fc.integer(), fc.double(), fc.string()),
      },
      { requiredKeys: [] },
    );
    const file = fc.oneof(
      fc.record(
        {
          target: entry,
          loadgen: entry,
          redis: fc.oneof(entry, fc.record({ url: fc.string() })),
          connectTimeoutSeconds: fc.anything(),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(file, (input) => {
        try {
          const f = parseHostsFile(input);
          // Whatever passes is safe to hand to ssh and a shell.
          expect(parseDestination(f.target.ssh)).not.toBeNull();
          expect(f.target.workDir).toMatch(/^\/[A-Za-z0-9._+@,:/-]+$/);
        } catch (e) {
          expect(e).toBeInstanceOf(HostsFileInvalidError);
          expect((e as Error).message).toMatch(/^hosts file is invalid:\n {2}- /);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('takes TLS files for the Redis it starts, and a CA only with a rediss:// URL', () => {
    const tls = { ca: 'tls/ca.crt', cert: 'tls/redis.crt', key: 'tls/redis.key' };
    expect(parseHostsFile({ ...good(), redis: { ...good().redis, tls } }).redis).toMatchObject({ tls });
    expect(
      parseHostsFile({ ...good(), redis: { url: 'rediss://198.18.0.4:6380', ca: 'ca.crt' } }).redis,
    ).toEqual({
      url: 'rediss://198.18.0.4:6380',
      ca: 'ca.crt',
    });
    expect(errorOf({ ...good(), redis: { url: 'redis://198.18.0.4:6379', ca: 'ca.crt' } }).message).toContain(
      'redis.ca: got "ca.crt", a CA verifies TLS only: use a rediss:// URL with "ca", or remove "ca"',
    );
    const half = errorOf({ ...good(), redis: { ...good().redis, tls: { ca: 'ca.crt', cert: 'r.crt' } } });
    expect(half.message).toContain('redis.tls.key: is required but missing');
  });

  describe('loadHostsFile', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'hb-hosts-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('resolves sshConfig against the file and reports unreadable or malformed files clearly', async () => {
      const p = join(dir, 'hosts.json');
      await writeFile(p, JSON.stringify(good()));
      await expect(loadHostsFile(p)).rejects.toMatchObject({
        code: 'HB_HOSTS_INVALID',
        message: expect.stringContaining(`sshConfig: ${join(dir, 'ssh_config')} cannot be read (ENOENT)`),
      });
      await writeFile(join(dir, 'ssh_config'), 'Host *\n');
      expect((await loadHostsFile(p)).sshConfig).toBe(join(dir, 'ssh_config'));
      await writeFile(p, '{ "target": ');
      await expect(loadHostsFile(p)).rejects.toMatchObject({
        code: 'HB_HOSTS_INVALID',
        message: expect.stringMatching(/not valid JSON/),
      });
      // TLS files resolve against the file's folder too, and a missing one is named before anything starts.
      const tls = { ca: 'tls/ca.crt', cert: 'tls/redis.crt', key: 'tls/redis.key' };
      await writeFile(p, JSON.stringify({ ...good(), redis: { ...good().redis, tls } }));
      await expect(loadHostsFile(p)).rejects.toMatchObject({
        code: 'HB_HOSTS_INVALID',
        message: expect.stringContaining(`redis.tls.ca: ${join(dir, 'tls/ca.crt')} cannot be read (ENOENT)`),
      });
      await mkdir(join(dir, 'tls'));
      for (const f of ['ca.crt', 'redis.crt', 'redis.key']) await writeFile(join(dir, 'tls', f), 'pem\n');
      expect((await loadHostsFile(p)).redis).toMatchObject({
        tls: {
          ca: join(dir, 'tls/ca.crt'),
          cert: join(dir, 'tls/redis.crt'),
          key: join(dir, 'tls/redis.key'),
        },
      });
      await expect(loadHostsFile(join(dir, 'missing.json'))).rejects.toMatchObject({
        code: 'HB_HOSTS_INVALID',
        message: expect.stringMatching(/cannot be read.*omit --hosts/),
      });
    });
  });
});
