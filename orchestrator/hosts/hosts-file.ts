// A validated hosts file: every lane's target(s) and load generator(s) the same shape, whichever way the file
// wrote them (one host, a list, or `lanes`), and the shared rest (sshConfig, connect timeout, Redis).
import type { z } from 'zod';
import { HostsFileInvalidError } from './errors.ts';
import { describeIssue, flattenIssues } from './hosts-file-issues.ts';
import { hostsFileSchema, type LoadgenEntry, type TargetEntry } from './hosts-file-schema.ts';

/**
 * One lane: `target` is its first target host (replica 0) and `targets` every one; `loadgen` its first
 * load-generator host and `loadgens` every one — whichever way the file wrote them.
 */
interface LaneEntry {
  target: TargetEntry;
  targets: TargetEntry[];
  /** The file listed the targets (`"target": [...]`) rather than naming one host. */
  targetList: boolean;
  loadgen: LoadgenEntry;
  loadgens: LoadgenEntry[];
  /** The file listed the load generators (`"loadgen": [...]`). */
  loadgenList: boolean;
}
/**
 * A validated hosts file (defaults filled in, sshConfig resolved to an absolute path). Its own target and
 * load generator are lane 0's (the one lane of a file without `lanes`); `lanes` has every lane.
 */
export type HostsFile = Omit<z.infer<typeof hostsFileSchema>, 'target' | 'loadgen' | 'lanes'> &
  LaneEntry & {
    lanes: LaneEntry[];
    /** The file listed `lanes` (even one), rather than naming target and loadgen. */
    laneList: boolean;
  };

/** The hosts file as lane `i` alone sees it: that lane's target(s) and load generator, the shared rest. */
export function laneHostsFile(file: HostsFile, i: number): HostsFile {
  return { ...file, ...file.lanes[i]! };
}

/** Validates parsed JSON; throws ONE HostsFileInvalidError listing every problem with its field path. */
export function parseHostsFile(input: unknown, source = 'hosts file'): HostsFile {
  const r = hostsFileSchema.safeParse(input);
  if (!r.success) {
    const lines = flattenIssues(input, r.error.issues).map((i) => `  - ${describeIssue(input, i)}`);
    throw new HostsFileInvalidError(`${source} is invalid:\n${lines.join('\n')}`, { cause: r.error });
  }
  const { target, loadgen, lanes, ...rest } = r.data;
  const laneList = lanes !== undefined;
  const entries = (lanes ?? [{ target: target!, loadgen: loadgen! }]).map((l): LaneEntry => {
    const list = Array.isArray(l.target) ? l.target : [l.target];
    const gens = Array.isArray(l.loadgen) ? l.loadgen : [l.loadgen];
    return {
      target: list[0]!,
      targets: list,
      targetList: Array.isArray(l.target),
      loadgen: gens[0]!,
      loadgens: gens,
      loadgenList: Array.isArray(l.loadgen),
    };
  });
  return { ...rest, ...entries[0]!, lanes: entries, laneList };
}
