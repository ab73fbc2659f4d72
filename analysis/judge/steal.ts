// The hypervisor's share of the machine a point was measured on. On a virtual machine, steal is time a vCPU
// was ready to run and got no physical core: it delays every timer of the harness at once, for minutes, and
// send lag follows it closely (bench/RESULTS.md, "The hypervisor's steal").

/** At or above this share, an invalid point's reasons name the hypervisor. */
export const STEAL_NOTE_SHARE = 0.03;

/** A share of CPU time as the run's lines print it, e.g. `4.2 %`. */
export function stealPercent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/** What an invalid point's reasons add about its machine's steal; null when it is below STEAL_NOTE_SHARE. */
export function stealNote(share: number | undefined): string | null {
  if (share === undefined || share < STEAL_NOTE_SHARE) return null;
  return `the machine's hypervisor took ${stealPercent(share)} of its CPU time while the point was measured (steal in /proc/stat): delays of the host, not of the harness; measure the point again with hedgebench run --resume DIR --retry-invalid`;
}
