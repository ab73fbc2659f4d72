// Deployment: check Node.js on a host and copy the single-file agent bundles into its working directory.
import { existsSync } from 'node:fs';
import { AgentStartError } from '../errors.ts';
import { checkNode, type Host } from '../hosts/index.ts';
import { AGENT_BUNDLES } from '../paths.ts';

/** How to run an agent on a host: the node program and the bundle's path there. */
export interface Deployed {
  node: string;
  bundle: string;
  nodeVersion: string;
  /** Words put before `node` when starting it (the load generator's `chrt -f 10`); none by default. */
  launcher?: readonly string[];
}

/** Checks Node.js on the host and uploads one bundle (skipped when unchanged). */
export async function deployAgent(
  host: Host,
  which: keyof typeof AGENT_BUNDLES,
  local: boolean,
): Promise<Deployed> {
  const src = AGENT_BUNDLES[which];
  if (!existsSync(src)) {
    throw new AgentStartError(
      `the ${which} bundle ${src} does not exist; build it with \`npm run build\` (scripts/setup.sh does this)`,
    );
  }
  // The orchestrator's own node on this machine; on a remote host, whatever `node` is on its PATH.
  const node = local ? process.execPath : 'node';
  const nodeVersion = await checkNode(host, node);
  const bundle = await host.upload(src, src.slice(src.lastIndexOf('/') + 1));
  return { node, bundle, nodeVersion };
}
