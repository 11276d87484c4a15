/**
 * `make bench` entry: the issue 17 matrix on one private control plane (with audit log) and
 * one cdn-sim. Each cell is one platform configuration (bench/lib/matrix.ts) × one fleet size
 * N: the sim is emptied and given the configuration's latency and rate limit, a fresh operator
 * process watches only the cell's namespaces, and it runs a cold create of N PullZoneConfigs
 * and an update of one field in all N (heap after a forced GC before and after). The smallest
 * cell of each configuration also measures update latency while `--load-creates` creates are
 * in flight, and the first configuration's the mixed fleet. Writes the report after every
 * cell (bench/report.ts).
 *
 * Flags (defaults = the full run; BENCH_QUICK=1 switches to small values for iteration):
 *   --configs l50,l50-r100-unknown,l200,l50-r20   --sizes 1000,10000   --workers 8
 *   --poll-interval 30m  --update-samples 20  --load-creates 1000  --mixed 200
 *   --known-limit-flag <operator flag taking the platform limit per second> (empty: not passed)
 *   --scenarios matrix,noisy,apply   what to run (default all; `--scenarios noisy` runs only
 *                           the noisy-neighbour scenario, bench/scenarios/noisy-neighbour.ts;
 *                           `apply` is kubectl apply + reconcile end to end,
 *                           bench/scenarios/apply-end-to-end.ts)
 *   --apply-n 500           objects of the end-to-end scenario
 *   --apply-rounds 3        interleaved rounds of its applies with nothing reconciling (lone
 *                           minimal, ours, bare schema); the goal's figures are their medians
 *   --noisy-duration 90s    the noisy-neighbour window (BENCH_QUICK: 45s)
 *   --deadline <ISO time>   skip a cell whose estimate (2 × (2 × ceiling + 60 s)) ends after it
 *   --steady <duration>     also idle that long in the first cell
 *   --pages-sizes 10000,100000 --pages-poll-interval 10m --pages-window 10m --pages-drifts 50
 *                           the observe-by-pages scenario (`pages`, bench/scenarios/observe-by-pages.ts;
 *                           BENCH_QUICK: 1000 objects, 1m, 2m, 10 drifts)
 *   --pages-by-id-max 0     run the per-object polling mode beside it only up to this N (0: at
 *                           every size); above it only the pages mode runs
 *   --null-baseline on|off  run the null controller beside each cell (default on; see
 *                           bench/scenarios/null-baseline.ts)
 *   --out bench/results     --render <results json> [--notes <json>]  rebuild an earlier run's
 *                           report, adding notes (row key -> why and what would close it)
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDuration } from '../src/runtime/duration.js';
import { BenchEnv, OPERATOR_USER } from './lib/env.js';
import { ceilingMs, ceilingRate, pickConfigs, simFaults, type MatrixConfig } from './lib/matrix.js';
import { collectionPath } from './lib/objects.js';
import { forcedGcHeap } from './lib/operator-stats.js';
import { writeReport, type BenchResult, type CellRun, type ConfigRun } from './report.js';
import { runColdCreate } from './scenarios/cold-create.js';
import { runMixedFleet } from './scenarios/mixed-fleet.js';
import { runApplyEndToEnd, type ApplyEndToEndResult } from './scenarios/apply-end-to-end.js';
import { readCrds } from './lib/minimal-crd.js';
import { NULL_USER, runNullBaseline } from './scenarios/null-baseline.js';
import { NOISY_A_KEY, runNoisyNeighbour, type NoisySettings } from './scenarios/noisy-neighbour.js';
import { runSteadyState } from './scenarios/steady-state.js';
import { runObserveByPages, type PagesParams } from './scenarios/observe-by-pages.js';
import { runUpdateAll } from './scenarios/update-all.js';
import { runUpdateLatency } from './scenarios/update-latency.js';
import type { OperatorProcess } from '../test/e2e/support/operator.js';

const QUICK = process.env.BENCH_QUICK === '1';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Slack added to every phase timeout on top of 4 × its ceiling. */
const SLACK_MS = QUICK ? 120_000 : 600_000;

/** The environment running now, stopped on SIGINT/SIGTERM so no process outlives the bench. */
let current: BenchEnv | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void (current?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

/** Settings of one run (recorded in the report). */
export interface Settings {
  configs: string[];
  sizes: number[];
  workers: number;
  /** The operator's --max-concurrent-reconciles; 0 = its default (4 × workers). */
  maxConcurrentReconciles: number;
  pollIntervalMs: number;
  updateSamples: number;
  loadCreates: number;
  mixedPerKind: number;
  knownLimitFlag: string;
  deadline: string;
  steadyMs: number;
  /** Scenarios to run: `matrix`, `noisy`. */
  scenarios: string[];
  noisyDurationMs: number;
  /** Objects of the end-to-end apply scenario. */
  applyN: number;
  /** Interleaved rounds of the end-to-end scenario's applies with nothing reconciling. */
  applyRounds: number;
  /** Whether each cell also runs the null-controller baseline. */
  nullBaseline: boolean;
  /** The observe-by-pages scenario: fleet sizes, poll interval, window, drift changes. */
  pagesSizes: number[];
  pagesPollIntervalMs: number;
  pagesWindowMs: number;
  pagesDrifts: number;
  /** Largest N the per-object polling mode runs at beside the pages mode (0: every N). */
  pagesByIdMax: number;
  out: string;
}

const DEFAULTS: Record<string, [full: string, quick: string]> = {
  configs: ['', ''],
  sizes: ['1000,10000', '50,200'],
  workers: ['8', '8'],
  'max-concurrent-reconciles': ['0', '0'],
  'poll-interval': ['30m', '30m'],
  'update-samples': ['20', '10'],
  'load-creates': ['1000', '100'],
  mixed: ['200', '20'],
  'known-limit-flag': ['api-rate-limit-max', 'api-rate-limit-max'],
  deadline: ['', ''],
  steady: ['0s', '0s'],
  scenarios: ['matrix,noisy,apply,pages', 'matrix,noisy,apply,pages'],
  'pages-sizes': ['10000,100000', '1000'],
  'pages-poll-interval': ['10m', '1m'],
  'pages-window': ['10m', '2m'],
  'pages-drifts': ['50', '10'],
  'pages-by-id-max': ['0', '0'],
  'apply-n': ['500', '200'],
  'apply-rounds': ['3', '1'],
  'noisy-duration': ['90s', '45s'],
  'null-baseline': ['on', 'on'],
  out: ['bench/results', 'bench/results'],
};

function settings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, { type: 'string' as const }])),
  });
  const v = (k: string): string =>
    (values as Record<string, string | undefined>)[k] ?? (DEFAULTS[k]?.[QUICK ? 1 : 0] as string);
  const list = (s: string): number[] => s.split(',').filter(Boolean).map(Number);
  const steady = v('steady');
  return {
    configs: pickConfigs(v('configs')).map((c) => c.id),
    sizes: list(v('sizes')).sort((a, b) => a - b),
    workers: Number(v('workers')),
    maxConcurrentReconciles: Number(v('max-concurrent-reconciles')),
    pollIntervalMs: parseDuration(v('poll-interval')),
    updateSamples: Number(v('update-samples')),
    loadCreates: Number(v('load-creates')),
    mixedPerKind: Number(v('mixed')),
    knownLimitFlag: v('known-limit-flag'),
    deadline: v('deadline'),
    steadyMs: steady === '0' || steady === '0s' ? 0 : parseDuration(steady),
    scenarios: v('scenarios').split(',').filter(Boolean),
    noisyDurationMs: parseDuration(v('noisy-duration')),
    applyN: Number(v('apply-n')),
    applyRounds: Number(v('apply-rounds')),
    nullBaseline: v('null-baseline') !== 'off',
    pagesSizes: list(v('pages-sizes')),
    pagesPollIntervalMs: parseDuration(v('pages-poll-interval')),
    pagesWindowMs: parseDuration(v('pages-window')),
    pagesDrifts: Number(v('pages-drifts')),
    pagesByIdMax: Number(v('pages-by-id-max')),
    out: v('out'),
  };
}

function log(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString()}] ${msg}\n`);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function operatorArgs(s: Settings, c: MatrixConfig): string[] {
  const known =
    c.limitKnown && c.platformLimit !== undefined && s.knownLimitFlag !== ''
      ? [`--${s.knownLimitFlag}`, String(c.platformLimit)]
      : [];
  const passes =
    s.maxConcurrentReconciles > 0
      ? ['--max-concurrent-reconciles', String(s.maxConcurrentReconciles)]
      : [];
  return [
    '--workers',
    String(s.workers),
    ...passes,
    '--poll-interval',
    `${s.pollIntervalMs}ms`,
    '--log-level',
    'info',
    ...known,
  ];
}

/** The observe-by-pages scenario at each of its sizes, reported after each. */
async function runPages(env: BenchEnv, s: Settings, res: BenchResult): Promise<void> {
  res.pages = [];
  for (const n of s.pagesSizes) {
    const got = await runObserveByPages(env, pagesParams(s, n), log).catch((err: unknown) => {
      log(`observe by pages n=${n} failed: ${errorText(err)}`);
      return undefined;
    });
    if (got) res.pages.push(got);
    res.finishedAt = new Date().toISOString();
    await writeReport(res, s.out);
  }
}

/** The observe-by-pages scenario at `n` objects (default share and sweep interval). */
function pagesParams(s: Settings, n: number): PagesParams {
  return {
    n,
    pollIntervalMs: s.pagesPollIntervalMs,
    windowMs: s.pagesWindowMs,
    drifts: s.pagesDrifts,
    modes: s.pagesByIdMax > 0 && n > s.pagesByIdMax ? ['pages'] : ['by-id', 'pages'],
    readShare: 0.2,
    sweepIntervalMs: 60_000,
    workers: s.workers,
    // Adoption of n objects at well under the measured create rate, plus the window.
    timeoutMs: 120_000 + n * 40,
  };
}

/** The noisy-neighbour scenario's sizes (quick mode: about half). */
function noisySettings(s: Settings): NoisySettings {
  const k = QUICK ? 0.5 : 1;
  return {
    durationMs: s.noisyDurationMs,
    bExisting: Math.round(50 * k),
    bCreates: Math.round(30 * k),
    // 100 samples: p99 is the 99th of them, not the maximum.
    bUpdates: Math.round(100 * k),
    aExisting: Math.round(30 * k),
    aUrlObjects: Math.round(10 * k),
    aCreates: Math.round(100 * k),
    aRatePerSecond: 5,
    retryAfterSeconds: 2,
    aRoundMs: 2000,
    operatorArgs: [
      '--workers',
      String(s.workers),
      ...(s.maxConcurrentReconciles > 0
        ? ['--max-concurrent-reconciles', String(s.maxConcurrentReconciles)]
        : []),
      '--poll-interval',
      `${s.pollIntervalMs}ms`,
      '--log-level',
      'info',
    ],
    timeoutMs: QUICK ? 120_000 : 300_000,
  };
}

/** Skips a phase that cannot end before the deadline; returns the reason or undefined. */
function overBudget(s: Settings, estimateMs: number): string | undefined {
  if (s.deadline === '') return undefined;
  const end = Date.parse(s.deadline);
  if (Date.now() + estimateMs <= end) return undefined;
  return `skipped: estimated ${Math.round(estimateMs / 1000)} s, which ends after the run's deadline ${s.deadline}`;
}

/**
 * A phase timeout that also ends at the deadline (with 2 min left for teardown and the
 * report), so that a cell running slower than estimated is cut, not the whole run.
 */
function phaseTimeout(s: Settings, timeoutMs: number): number {
  if (s.deadline === '') return timeoutMs;
  return Math.max(10_000, Math.min(timeoutMs, Date.parse(s.deadline) - Date.now() - 120_000));
}

/**
 * Time a cell will take: from the ceilings (2 × ceiling per phase + 60 s), or, for a larger
 * cell, from the same configuration's measured smaller cell scaled by N, if that is longer.
 */
function cellEstimate(s: Settings, c: MatrixConfig, run: ConfigRun, n: number): number {
  const byCeiling = 2 * (2 * ceilingMs(c, s.workers, n, 1) + 60_000);
  const small = run.cells.find((x) => x.create?.timeToAllReadyMs && x.n < n);
  if (!small?.create?.timeToAllReadyMs) return byCeiling;
  const measured =
    small.create.timeToAllReadyMs +
    (small.update?.timeToAllWrittenMs ?? small.create.timeToAllReadyMs);
  return Math.max(byCeiling, (measured * n) / small.n + 120_000);
}

async function heap(op: OperatorProcess): Promise<number | undefined> {
  return (await forcedGcHeap(op).catch(() => undefined))?.heapUsedBytes;
}

/** What runs in a cell besides create and update. */
interface Extras {
  latency: boolean;
  mixed: boolean;
}

async function runCreateUpdate(
  env: BenchEnv,
  op: OperatorProcess,
  s: Settings,
  c: MatrixConfig,
  cell: CellRun,
  ns: string,
): Promise<void> {
  const n = cell.n;
  cell.heapBeforeBytes = await heap(op);
  const timeoutMs = phaseTimeout(s, 4 * ceilingMs(c, s.workers, n, 1) + SLACK_MS);
  cell.create = await runColdCreate(
    env,
    op,
    c,
    // Zone names are platform-wide unique and default to the object name: one prefix per cell.
    { n, namespace: ns, prefix: `pz${n}`, workers: s.workers, timeoutMs },
    log,
  );
  cell.heapAfterBytes = cell.create.heapAfter.heapUsedBytes;
  log(`${c.id} n=${n}: create ratio ${cell.create.ratio?.toFixed(2) ?? 'n/a'}`);
  if (cell.create.timeToAllReadyMs === null) return;
  cell.update = await runUpdateAll(
    env,
    c,
    {
      namespace: ns,
      workers: s.workers,
      value: 3600 + n,
      timeoutMs: phaseTimeout(s, 4 * ceilingMs(c, s.workers, n, 1) + SLACK_MS),
    },
    log,
  );
  log(`${c.id} n=${n}: update ratio ${cell.update.ratio?.toFixed(2) ?? 'n/a'}`);
}

async function runExtras(
  env: BenchEnv,
  op: OperatorProcess,
  s: Settings,
  c: MatrixConfig,
  run: ConfigRun,
  cell: CellRun,
  extras: Extras,
): Promise<void> {
  if (!cell.create?.timeToAllReadyMs) return;
  if (extras.latency && s.steadyMs > 0 && extras.mixed) {
    run.steady = await runSteadyState(
      env,
      op,
      {
        n: cell.n,
        durationMs: s.steadyMs,
        pollIntervalMs: s.pollIntervalMs,
        scrapeEveryMs: 15_000,
      },
      log,
    );
  }
  if (extras.latency) {
    const skip = overBudget(s, 2 * ceilingMs(c, s.workers, s.loadCreates, 1) + 60_000);
    if (skip) run.updateLatencySkipped = skip;
    else
      run.updateLatency = await runUpdateLatency(
        env,
        {
          namespace: cell.create.namespace,
          loadNamespace: `${c.id}-load`,
          loadCreates: s.loadCreates,
          samples: s.updateSamples,
          intervalMs: 300,
          value: 7200,
          timeoutMs: phaseTimeout(s, 4 * ceilingMs(c, s.workers, s.loadCreates, 1) + SLACK_MS),
        },
        log,
      );
  }
  if (extras.mixed) {
    run.mixed = await runMixedFleet(
      env,
      {
        namespace: `${c.id}-mixed`,
        perKind: s.mixedPerKind,
        timeoutMs: phaseTimeout(s, s.mixedPerKind * 3000 + 300_000),
      },
      log,
    ).catch((err: unknown) => {
      run.mixedError = errorText(err);
      return undefined;
    });
  }
}

/**
 * One cell on the shared control plane: the sim is emptied and given the configuration's
 * faults, and a fresh operator watches only the cell's namespaces, so the objects of earlier
 * cells (left in place: deleting 10,000 objects through the operator would cost as much as
 * creating them) are neither cached nor polled.
 */
async function runCell(
  env: BenchEnv,
  s: Settings,
  c: MatrixConfig,
  run: ConfigRun,
  n: number,
  extras: Extras,
): Promise<CellRun> {
  const cell: CellRun = { n, loadAvgAtStart: loadavg() };
  const skip = overBudget(s, cellEstimate(s, c, run, n));
  if (skip) {
    cell.skipped = skip;
    log(`${c.id} n=${n}: ${skip}`);
    return cell;
  }
  const ns = `${c.id}-${n}`;
  const watched = [
    ns,
    ...(extras.latency ? [`${c.id}-load`] : []),
    ...(extras.mixed ? [`${c.id}-mixed`] : []),
  ];
  for (const w of watched) await env.createNamespace(w);
  await env.sim.resetState();
  await env.sim.setFaults(simFaults(c));
  log(`${c.id} n=${n}: operator ${run.operatorArgs.join(' ')} on ${watched.join(',')}`);
  const op = await env.startOperator('bench', {
    args: [
      ...run.operatorArgs,
      '--namespace',
      watched.join(','),
      '--secret-namespace',
      ['bench', ...watched].join(','),
    ],
  });
  let template: Record<string, unknown> | undefined;
  try {
    run.heapIdleBytes ??= await heap(op);
    await runCreateUpdate(env, op, s, c, cell, ns);
    template = await reconciledStatus(env, ns);
    await runExtras(env, op, s, c, run, cell, extras);
    if (op.child.exitCode !== null) cell.error = `operator exited with ${op.child.exitCode}`;
  } catch (err) {
    cell.error = errorText(err);
    log(`${c.id} n=${n} failed: ${cell.error}`);
  } finally {
    await env.stopOperator(op);
    cell.loadAvgAtEnd = loadavg();
    run.loadAvgAtEnd = cell.loadAvgAtEnd;
  }
  if (s.nullBaseline && template) await runNullCell(env, s, c, cell, template);
  return cell;
}

/** The status of one object the operator reconciled in `namespace` (the null controller's). */
async function reconciledStatus(
  env: BenchEnv,
  namespace: string,
): Promise<Record<string, unknown> | undefined> {
  const list = await env.kube.request<{ items: Array<{ status?: Record<string, unknown> }> }>({
    method: 'GET',
    path: collectionPath(namespace, 'PullZoneConfig'),
    query: { limit: 1 },
    timeoutMs: 60_000,
  });
  return list.items[0]?.status;
}

/**
 * The cell's null-controller baseline, after the operator stopped: the same N objects and the
 * same update in a namespace of their own, reconciled with no platform behind them.
 */
async function runNullCell(
  env: BenchEnv,
  s: Settings,
  c: MatrixConfig,
  cell: CellRun,
  template: Record<string, unknown>,
): Promise<void> {
  const namespace = `${c.id}-${cell.n}-null`;
  await env.createNamespace(namespace);
  cell.nullBaseline = await runNullBaseline(
    env,
    {
      n: cell.n,
      namespace,
      prefix: `nz${cell.n}`,
      workers: s.workers,
      statusTemplate: template,
      value: 3600 + cell.n,
      timeoutMs: phaseTimeout(s, 4 * ceilingMs(c, s.workers, cell.n, 1) + SLACK_MS),
    },
    log,
  ).catch((err: unknown) => {
    log(`${c.id} n=${cell.n}: null baseline failed: ${errorText(err)}`);
    return undefined;
  });
}

/** The end-to-end apply scenario with the matrix's operator flags (l50). */
async function runApply(env: BenchEnv, s: Settings): Promise<ApplyEndToEndResult | undefined> {
  const crds = await readCrds(join(ROOT, 'crds'));
  const crd = crds.find((c) => c.kind === 'PullZoneConfig');
  const l50 = pickConfigs('l50')[0];
  if (!crd || !l50) throw new Error('cannot run end to end: no PullZoneConfig CRD in crds/');
  return await runApplyEndToEnd(
    env,
    {
      n: s.applyN,
      workers: s.workers,
      operatorArgs: operatorArgs(s, l50),
      crd,
      crds,
      rounds: s.applyRounds,
      timeoutMs: phaseTimeout(s, 4 * ceilingMs(l50, s.workers, s.applyN, 2) + SLACK_MS),
    },
    log,
  ).catch((err: unknown) => {
    log(`end to end failed: ${errorText(err)}`);
    return undefined;
  });
}

async function main(): Promise<void> {
  const render = process.argv.indexOf('--render');
  if (render >= 0) {
    const file = process.argv[render + 1] as string;
    const earlier = JSON.parse(await readFile(file, 'utf8')) as BenchResult;
    // --notes <json>: explanations of missed goals by row key, kept in the results JSON.
    const notes = process.argv.indexOf('--notes');
    if (notes >= 0) {
      const added = JSON.parse(await readFile(process.argv[notes + 1] as string, 'utf8')) as Record<
        string,
        string
      >;
      earlier.notes = { ...earlier.notes, ...added };
    }
    log(`report written: ${await writeReport(earlier, dirname(file), notes < 0)}`);
    return;
  }
  const s = settings(process.argv.slice(2));
  const res: BenchResult = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    mode: QUICK ? 'quick' : 'full',
    machine: {
      cpus: cpus().length,
      loadAvgAtStart: loadavg(),
      node: process.version,
      platform: process.platform,
    },
    gitCommit: execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim(),
    settings: { ...s },
    configs: [],
  };
  const configs = s.scenarios.includes('matrix') ? pickConfigs(s.configs.join(',')) : [];
  res.configs = configs.map((c) => ({
    config: c,
    operatorArgs: operatorArgs(s, c),
    loadAvgAtStart: loadavg(),
    cells: [],
  }));
  log('starting the control plane and cdn-sim (shared by every cell)');
  const env = await BenchEnv.start({
    extraApiKeys: [NOISY_A_KEY],
    operatorUsers: [OPERATOR_USER, NULL_USER],
  });
  current = env;
  try {
    await env.createNamespace('bench');
    // Every configuration's small cell first, then the large ones from the cheapest ceiling
    // up: a run cut short by --deadline loses the most expensive cells only.
    for (const [k, n] of s.sizes.entries()) {
      const order =
        k === 0
          ? res.configs
          : [...res.configs].sort(
              (a, b) => ceilingRate(b.config, s.workers) - ceilingRate(a.config, s.workers),
            );
      for (const run of order) {
        const extras = {
          latency: k === 0 && s.loadCreates > 0,
          mixed: k === 0 && run === res.configs[0] && s.mixedPerKind > 0,
        };
        run.cells.push(await runCell(env, s, run.config, run, n, extras));
        res.finishedAt = new Date().toISOString();
        await writeReport(res, s.out); // a run cut short still leaves what it measured
      }
    }
    if (s.scenarios.includes('apply')) {
      res.apply = await runApply(env, s);
      res.finishedAt = new Date().toISOString();
      await writeReport(res, s.out);
    }
    if (s.scenarios.includes('pages')) await runPages(env, s, res);
    if (s.scenarios.includes('noisy')) {
      res.noisy = await runNoisyNeighbour(env, noisySettings(s), log);
      res.finishedAt = new Date().toISOString();
      await writeReport(res, s.out);
    }
  } finally {
    await env.stop();
    current = undefined;
  }
  res.machine.loadAvgAtEnd = loadavg();
  res.finishedAt = new Date().toISOString();
  log(`report written: ${await writeReport(res, s.out)}`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
