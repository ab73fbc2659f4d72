// The files of a run folder, by name: what `run`, `simulate`, `compare`, `report` and `claims` write and
// read (results/README.md documents each). Every writer and reader takes its names from here; a point's raw
// files are named by raw-paths.ts.

/** File and folder names inside a run folder (or a `simulate` output folder). */
export const RUN_FILES = {
  manifest: 'manifest.json',
  points: 'points.csv',
  /** The simulated rows of a run, kept apart while its real rows come in. */
  sim: 'sim.csv',
  runLog: 'run.log',
  comparison: 'comparison.csv',
  comparisonNet: 'comparison-net.csv',
  comparisonText: 'comparison.txt',
  attribution: 'attribution.csv',
  claims: 'claims.csv',
  reportMd: 'report.md',
  reportHtml: 'report.html',
  /** What `simulate` writes beside points.csv for `claims`. */
  simEvidence: 'sim-evidence.json',
  charts: 'charts',
  /** The agents' working folders (logs, tokens) of a local run. */
  work: 'work',
} as const;
