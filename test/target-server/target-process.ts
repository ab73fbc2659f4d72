// Test and bench helper: target-server/main.ts as a child process (env added to ours), resolved once it
// prints its `listening` line; stop() ends it with SIGTERM (SIGKILL after 5 s) and waits for the exit.
import { type ChildProcess, spawn } from 'node:child_process';

/** A target server running as a child process. */
export interface TargetProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the target server with `args` and `env`; rejects with its stderr if it exits or is silent for 30 s. */
export async function startTargetProcess(
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<TargetProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'target-server/main.ts', '--port', '0', ...args],
    {
      env: { ...process.env, HEDGEBENCH_TOKEN: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(kill);
    }
  };
  let err = '';
  child.stderr!.on('data', (d) => {
    err += d;
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const silent = setTimeout(() => reject(new Error(`no listening line in 30 s; stderr: ${err}`)), 30_000);
      child.stdout!.on('data', (d) => {
        out += d;
        const nl = out.indexOf('\n');
        if (nl < 0) return;
        clearTimeout(silent);
        resolve(JSON.parse(out.slice(0, nl)).url);
      });
      child.once('exit', (code) => {
        clearTimeout(silent);
        reject(new Error(`target server exited ${code}: ${err}`));
      });
    });
    return { url, child, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
