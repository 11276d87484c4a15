/**
 * `make bench` entry: for each fleet size a fresh private control plane (with audit log),
 * cdn-sim and one operator process; cold create, steady state and update latency; then a
 * mixed fleet on a fresh environment; writes the report (bench/report.ts).
 *
 * Flags (defaults = the full run; BENCH_QUICK=1 switches to small values for iteration):
 *   --sizes 1000,10000  --latency-ms 50  --rate-limit 20  --workers 8
 *   --steady 10m  --poll-interval 5m  --steady-sizes <sizes>  --update-samples 20
 *   --load-creates 500  --mixed 200  --out bench/results
 *   --render <results json>   rebuild an earlier run's Markdown and charts
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseDuration } from '../src/runtime/duration.js';
import { BenchEnv } from './lib/env.js';
import { writeReport, type BenchResult, type SizeRun } from './report.js';
import { runColdCreate } from './scenarios/cold-create.js';
import { runMixedFleet } from './scenarios/mixed-fleet.js';
import { runSteadyState } from './scenarios/steady-state.js';
import { runUpdateLatency } from './scenarios/update-latency.js';

const QUICK = process.env.BENCH_QUICK === '1';

interface Settings {
  sizes: number[];
  latencyMs: number;
  rateLimitPerSecond: number;
  workers: number;
  steadyMs: number;
  pollIntervalMs: number;
  steadySizes: number[];
  updateSamples: number;
  loadCreates: number;
  mixedPerKind: number;
  out: string;
}

const DEFAULTS: Record<string, [full: string, quick: string]> = {
  sizes: ['1000,10000', '50'],
  'latency-ms': ['50', '50'],
  'rate-limit': ['20', '20'],
  workers: ['8', '8'],
  steady: ['10m', '60s'],
  'poll-interval': ['5m', '30s'],
  'steady-sizes': ['', ''],
  'update-samples': ['20', '5'],
  'load-creates': ['500', '50'],
  mixed: ['200', '20'],
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
  const sizes = list(v('sizes'));
  return {
    sizes,
    latencyMs: Number(v('latency-ms')),
    rateLimitPerSecond: Number(v('rate-limit')),
    workers: Number(v('workers')),
    steadyMs: parseDuration(v('steady')),
    pollIntervalMs: parseDuration(v('poll-interval')),
    steadySizes: v('steady-sizes') !== '' ? list(v('steady-sizes')) : sizes,
    updateSamples: Number(v('update-samples')),
    loadCreates: Number(v('load-creates')),
    mixedPerKind: Number(v('mixed')),
    out: v('out'),
  };
}

function log(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString()}] ${msg}\n`);
}

function operatorArgs(s: Settings): string[] {
  return [
    '--workers',
    String(s.workers),
    '--poll-interval',
    `${s.pollIntervalMs}ms`,
    '--log-level',
    'info',
  ];
}

async function runSize(s: Settings, n: number): Promise<SizeRun> {
  const run: SizeRun = { n };
  log(`size ${n}: starting control plane, cdn-sim and operator`);
  const env = await BenchEnv.start();
  try {
    await env.createNamespace('bench');
    await env.createNamespace('bench-load');
    const op = await env.startOperator('bench', { args: operatorArgs(s) });
    run.coldCreate = await runColdCreate(
      env,
      op,
      {
        n,
        namespace: 'bench',
        latencyMs: s.latencyMs,
        rateLimitPerSecond: s.rateLimitPerSecond,
        workers: s.workers,
        timeoutMs: n * 1000 + 300_000,
      },
      log,
    );
    log(
      `size ${n}: all Ready in ${run.coldCreate.timeToAllReadyMs} ms (ratio ${run.coldCreate.ratio.toFixed(2)})`,
    );
    if (s.steadySizes.includes(n)) {
      run.steady = await runSteadyState(
        env,
        op,
        { n, durationMs: s.steadyMs, pollIntervalMs: s.pollIntervalMs, scrapeEveryMs: 15_000 },
        log,
      );
      run.updateLatency = await runUpdateLatency(
        env,
        {
          namespace: 'bench',
          n,
          samples: s.updateSamples,
          loadCreates: s.loadCreates,
          loadNamespace: 'bench-load',
          timeoutMs: 600_000,
        },
        log,
      );
    }
    if (op.child.exitCode !== null) run.error = `operator exited with ${op.child.exitCode}`;
  } catch (err) {
    run.error = err instanceof Error ? err.message : String(err);
    log(`size ${n} failed: ${run.error}`);
  } finally {
    await env.stop();
  }
  return run;
}

async function runMixed(s: Settings, res: BenchResult): Promise<void> {
  log(`mixed fleet: ${s.mixedPerKind} per kind`);
  const env = await BenchEnv.start();
  try {
    await env.createNamespace('bench');
    await env.startOperator('bench', { args: operatorArgs(s) });
    await env.sim.setFaults({
      latencyMs: s.latencyMs,
      rateLimit: { ratePerSecond: s.rateLimitPerSecond, burst: s.rateLimitPerSecond },
    });
    res.mixed = await runMixedFleet(
      env,
      { namespace: 'bench', perKind: s.mixedPerKind, timeoutMs: s.mixedPerKind * 3000 + 300_000 },
      log,
    );
  } catch (err) {
    res.mixedError = err instanceof Error ? err.message : String(err);
    log(`mixed fleet failed: ${res.mixedError}`);
  } finally {
    await env.stop();
  }
}

async function main(): Promise<void> {
  // --render <json>: rebuild the Markdown and charts of an earlier run (no measuring).
  const render = process.argv.indexOf('--render');
  if (render >= 0) {
    const file = process.argv[render + 1] as string;
    const earlier = JSON.parse(await readFile(file, 'utf8')) as BenchResult;
    log(`report written: ${await writeReport(earlier, dirname(file), true)}`);
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
    sizes: [],
  };
  for (const n of s.sizes) res.sizes.push(await runSize(s, n));
  if (s.mixedPerKind > 0) await runMixed(s, res);
  res.finishedAt = new Date().toISOString();
  const path = await writeReport(res, s.out);
  log(`report written: ${path}`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
