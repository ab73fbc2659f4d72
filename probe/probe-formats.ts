// What a probe writes, as pure functions of its result: model.json (the matrix `model` shape), steps.csv
// (every ramp step, measured and fitted), the Markdown report with the goodness of fit, and the chart's
// Vega-Lite spec (latency against offered load, measured and fitted).

import { csvCell, csvFile, formatMs } from '../contract/index.ts';
import type { ProbePartial } from './errors.ts';
import type { ProbeResult, RampStep } from './probe-result.ts';

/** model.json: exactly the matrix's `model` fields, so a matrix can name the file. */
export function formatModelJson(r: ProbeResult): string {
  return `${JSON.stringify(r.model, null, 2)}\n`;
}

const STEP_HEADER =
  'rate_per_s,sent,answered,failed,timeouts,p10_ms,p50_ms,p75_ms,p90_ms,p99_ms,mean_ms,max_send_lag_ms,fitted_load,fitted_p10_ms,fitted_p50_ms,fitted_p90_ms,fitted_p99_ms,fitted_mean_ms,knee,send_lag_p99_ms,loop_delay_p99_ms,noisy';

const num = (x: number | undefined, d = 3) => (x === undefined || !Number.isFinite(x) ? '' : x.toFixed(d));

/** steps.csv: one row per ramp step; the fitted columns are empty when the probe stopped before the fit. */
export function formatStepsCsv(steps: readonly RampStep[], r?: ProbeResult): string {
  const preds = new Map<RampStep, ProbeResult['workers']['predictions'][number]>();
  if (r) {
    const usable = r.steps.filter((s) => s.n >= 20);
    for (const [i, s] of usable.entries()) preds.set(s, r.workers.predictions[i]);
  }
  return csvFile(
    STEP_HEADER,
    steps.map((s) => {
      const p = preds.get(s);
      return [
        num(s.rate),
        s.sent,
        s.n,
        s.failed,
        s.timeouts,
        num(s.p10Ms),
        num(s.p50Ms),
        num(s.p75Ms),
        num(s.p90Ms),
        num(s.p99Ms),
        num(s.meanMs),
        num(s.maxSendLagMs),
        num(p?.load, 4),
        num(p?.p10Ms),
        num(p?.p50Ms),
        num(p?.p90Ms),
        num(p?.p99Ms),
        num(p?.meanMs),
        csvCell(s.knee ?? ''),
        num(s.sendLagP99Ms),
        num(s.loopDelayP99Ms),
        csvCell(s.noisy ?? ''),
      ].join(',');
    }),
  );
}

/** service-quantiles.csv: the measured service-time distribution (the empirical model where the fit is poor). */
export function formatServiceQuantilesCsv(r: ProbeResult): string {
  return csvFile(
    'q,service_ms',
    r.service.empiricalMs.map((ms, i) => `${((i + 1) / 1000).toFixed(3)},${ms.toFixed(3)}`),
  );
}

/** The report of a complete probe. */
export function formatProbeReport(r: ProbeResult): string {
  const m = r.model;
  const sv = r.service;
  const w = r.workers;
  const poor = sv.poor || w.poor;
  const lines = [
    `# Probe of ${r.options.target}`,
    '',
    poor
      ? `**Poor fit** — ${[sv.poor ? 'the service-time distribution is not the model’s log-normal + stragglers' : '', w.poor ? 'the load ramp is not explained by a pool of workers behind one queue' : ''].filter(Boolean).join('; ')}. Predictions from model.json are not to be trusted for this service; the evidence is below.`
      : 'The model fits: a pool of workers behind one FIFO queue, log-normal service times with stragglers.',
    '',
    ...(r.noise
      ? [
          `**Noisy probe** — ${r.noise}. Under CPU contention the probe's own lateness looks like queueing, so the fitted workers may be too few; the noisy steps are marked in the table below and in steps.csv.`,
          '',
        ]
      : []),
    '## Fitted model (model.json)',
    '',
    '| field | value |',
    '| --- | --- |',
    `| workers | ${m.workers} (Allen–Cunneen on the means: ${w.allenCunneen}) |`,
    `| medianMs | ${m.medianMs} |`,
    `| sigma | ${m.sigma} |`,
    `| stragglerProb | ${m.stragglerProb} (${sv.stragglers} of ${sv.n} answers above ${formatMs(sv.stragglerThresholdMs)} ms) |`,
    `| stragglerMinMs … stragglerMaxMs | ${m.stragglerMinMs} … ${m.stragglerMaxMs} |`,
    ...(r.errors === null || m.errorProb === undefined
      ? []
      : [
          `| errorProb | ${m.errorProb} (${r.errors.failed} of ${r.errors.answers} answers at low load: ${r.errors.statuses}) |`,
          `| errorMs | ${m.errorMs} (their median latency above the floor) |`,
        ]),
    '',
    ...(r.errors === null
      ? []
      : [
          `The service failed ${(r.errors.errorProb * 100).toFixed(2)} % of the requests sent one at a time by itself (a status, not overload): model.json says so, and \`hedgebench recommend\` then also tries first-completion against first-success and hedging at once on a failure. A failure's latency is fitted as its hold (errorMs); the workers are fitted on the 2xx answers.`,
          '',
        ]),
    ...(r.floor.noisy
      ? [
          `**Noisy floor**: the floor's p90 is ${formatMs(r.floor.p90Ms)} ms against a p50 of ${formatMs(r.floor.p50Ms)} ms — the client machine or the network adds delay of its own, and it is in every fitted figure (median and sigma too high). Probe from a quieter client.`,
          '',
        ]
      : []),
    `Service time = latency − network floor (${r.floor.source}, p50 ${formatMs(r.floor.p50Ms)} ms, p90 ${formatMs(r.floor.p90Ms)} ms over ${r.floor.samples} samples). Mean ${formatMs(sv.meanMs)} ms, cs² ${sv.cs2.toFixed(2)}; capacity ≈ ${((1000 * m.workers) / sv.meanMs).toFixed(0)} req/s.`,
    '',
    '## Goodness of fit: service time',
    '',
    `Kolmogorov–Smirnov distance ${sv.ks.toFixed(4)} (poor above ${sv.ksLimit.toFixed(4)}): ${sv.poor ? '**poor** — use the empirical distribution in service-quantiles.csv, not the log-normal of model.json' : 'good'}. The measured distribution is in service-quantiles.csv.`,
    '',
    '| quantile | measured ms | fitted ms |',
    '| --- | --- | --- |',
    ...sv.quantiles.map((q) => `| ${q.q} | ${formatMs(q.measuredMs)} | ${formatMs(q.fittedMs)} |`),
    '',
    '## Goodness of fit: workers and queue',
    '',
    `Each candidate number of workers was simulated at every step's rate and scored on p50/p75/p90 (lower is better): ${w.scores.map((s) => `${s.workers}: ${s.score.toFixed(0)}`).join(', ')}.`,
    '',
    w.poor
      ? `**Poor**:\n\n${w.evidence.map((e) => `- ${e}`).join('\n')}`
      : 'Every step agrees with the fitted M/G/c within its sampling spread.',
    '',
    '## Steps',
    '',
    `Low load (one request at a time): ${r.lowLoad.n} answers, ${r.lowLoad.failed} failed, p50 ${formatMs(r.lowLoad.p50Ms)} ms, p90 ${formatMs(r.lowLoad.p90Ms)} ms, p99 ${formatMs(r.lowLoad.p99Ms)} ms.`,
    '',
    '| rate req/s | sent | failed | p50 ms (fitted) | p90 ms (fitted) | p99 ms (fitted) | knee | noisy |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...stepRows(r),
    '',
    `Stopped at the knee: ${r.knee}. Probe time ${(r.elapsedMs / 1000).toFixed(1)} s. Chart: latency-vs-rate.svg; figures: steps.csv.`,
    '',
  ];
  return lines.join('\n');
}

function stepRows(r: ProbeResult): string[] {
  const usable = r.steps.filter((s) => s.n >= 20);
  return r.steps.map((s) => {
    const p = r.workers.predictions[usable.indexOf(s)];
    const f = (x: number, y: number | undefined) =>
      `${formatMs(x)}${y === undefined ? '' : ` (${formatMs(y)})`}`;
    return `| ${s.rate.toFixed(1)} | ${s.sent} | ${s.failed} | ${f(s.p50Ms, p?.p50Ms)} | ${f(s.p90Ms, p?.p90Ms)} | ${f(s.p99Ms, p?.p99Ms)} | ${s.knee ?? ''} | ${s.noisy ?? ''} |`;
  });
}

/** The report of a probe that stopped early: what was measured, and why there is no model.json. */
export function formatPartialReport(
  target: string,
  code: string,
  message: string,
  partial: ProbePartial,
): string {
  return [
    `# Probe of ${target} — INCOMPLETE`,
    '',
    `The probe stopped (${code}); **no model.json was written**.`,
    '',
    '```',
    message,
    '```',
    '',
    '## Measured before it stopped',
    '',
    ...partial.measured.map((l) => `- ${l}`),
    '',
  ].join('\n');
}

/** Vega-Lite spec: measured p50/p90 points and the fitted model's lines against the offered rate. */
export function chartSpec(r: ProbeResult): object {
  const usable = r.steps.filter((s) => s.n >= 20);
  const values = usable.flatMap((s, i) => {
    const p = r.workers.predictions[i];
    return [
      { rate: s.rate, ms: s.p50Ms, series: 'p50 measured', kind: 'measured' },
      { rate: s.rate, ms: s.p90Ms, series: 'p90 measured', kind: 'measured' },
      { rate: s.rate, ms: p.p50Ms, series: 'p50 fitted', kind: 'fitted' },
      { rate: s.rate, ms: p.p90Ms, series: 'p90 fitted', kind: 'fitted' },
    ];
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: `Latency against offered load: ${r.options.target}`,
    width: 480,
    height: 300,
    data: { values },
    layer: [
      {
        transform: [{ filter: "datum.kind === 'fitted'" }],
        mark: { type: 'line' },
        encoding: {
          x: { field: 'rate', type: 'quantitative', title: 'offered rate (req/s)' },
          y: { field: 'ms', type: 'quantitative', title: 'latency (ms)' },
          color: { field: 'series', type: 'nominal' },
        },
      },
      {
        transform: [{ filter: "datum.kind === 'measured'" }],
        mark: { type: 'point', filled: true },
        encoding: {
          x: { field: 'rate', type: 'quantitative' },
          y: { field: 'ms', type: 'quantitative' },
          color: { field: 'series', type: 'nominal' },
        },
      },
    ],
  };
}
