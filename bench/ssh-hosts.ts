// SSH host costs on the lab: first connect (handshake) vs multiplexed exec vs LocalHost exec, and upload.
// Run as root: npx tsx bench/ssh-hosts.ts [--quick]. Brings up its own lab (HB_LAB_ID=30) and takes it down.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { createLocalHost, createSshHost } from '../orchestrator/hosts/index.ts';

const quick = process.argv.includes('--quick');
const N = quick ? 8 : 25;
const ID = '30';
const repo = join(import.meta.dirname, '..');
const dir = join(repo, '.lab', 'bench-30');
const lab = (cmd: string) => execa(join(repo, 'scripts/lab.sh'), [cmd, dir], { env: { HB_LAB_ID: ID } });

function summary(name: string, ms: number[]): void {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(1);
  console.log(
    `${name.padEnd(46)} median ${q(0.5).padStart(6)} ms  p90 ${q(0.9).padStart(6)} ms  min ${s[0].toFixed(1)}  max ${s[s.length - 1].toFixed(1)}  n=${s.length}`,
  );
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const work = await mkdtemp(join(tmpdir(), 'hb-bench-ssh-'));
await lab('up');
try {
  const cfg = join(dir, 'ssh_config');
  const address = `198.18.${ID}.2`;
  const mk = () =>
    createSshHost({
      name: 'target',
      destination: `root@${address}`,
      address,
      workDir: join(dir, 'hosts', `hb${ID}-target`, 'work'),
      sshConfig: cfg,
    });
  console.log(
    `ssh-hosts bench: node ${process.version}, ${cpus().length}× ${cpus()[0]?.model}, lab 198.18.${ID}.0/24, n=${N}`,
  );

  const first: number[] = [];
  for (let i = 0; i < N; i++) {
    const h = mk();
    first.push(await time(() => h.exec(['true'])));
    await h.close();
  }
  summary('first exec (new ssh connection + handshake)', first);

  const h = mk();
  await h.exec(['true']);
  const mux: number[] = [];
  for (let i = 0; i < N * 2; i++) mux.push(await time(() => h.exec(['true'])));
  summary('exec over the multiplexed master', mux);
  const alive: number[] = [];
  for (let i = 0; i < N; i++) alive.push(await time(() => h.isAlive(1234567)));
  summary('isAlive (sh -s script, multiplexed)', alive);

  // What every remote command would pay if bash sourced root's ~/.bashrc (real hosts may; the lab avoids it).
  const rc: number[] = [];
  for (let i = 0; i < N; i++)
    rc.push(await time(() => execa('bash', ['-c', '[ -f ~/.bashrc ] && . ~/.bashrc; true'])));
  summary("root's ~/.bashrc here (lab sshd skips it: SHLVL=1)", rc);

  const local = createLocalHost({ name: 'local', workDir: join(work, 'local') });
  const loc: number[] = [];
  for (let i = 0; i < N * 2; i++) loc.push(await time(() => local.exec(['true'])));
  summary('LocalHost exec (execa, no ssh)', loc);

  const big = join(work, 'bundle.mjs');
  await writeFile(big, 'x'.repeat(2_000_000));
  const up1 = await time(() => h.upload(big, 'bundle.mjs'));
  const up2 = await time(() => h.upload(big, 'bundle.mjs'));
  console.log(
    `upload 2 MB: first ${up1.toFixed(1)} ms, unchanged (hash check, skipped) ${up2.toFixed(1)} ms`,
  );
  await h.close();
} finally {
  await lab('down');
  await rm(work, { recursive: true, force: true });
}
