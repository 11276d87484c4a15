/**
 * `make soak`: long-running load against the operator's hot paths, in two phases.
 *
 * 1. runtime (runtime-phase.ts, in this process, heap after a forced GC sampled along the way;
 *    run with `node --expose-gc`): ≥ 1 M CDN requests through the operator's client path over
 *    several accounts against cdn-sim, and an Informer on a fault-injecting watch server until
 *    ≥ 100 k watch events went through (410 and other ERROR events, short watches, dropped
 *    connections, stalls). Reports the heap slope per 10 k requests and watch restarts per minute.
 * 2. operator (operator-phase.ts): the built `cdn-operator` against a real kube-apiserver
 *    through a proxy that injects faults into every watch stream, for ≥ 10 minutes, while a
 *    driver keeps changing PullZoneConfig specs; checks the process never restarted and every
 *    spec change reached cdn-sim.
 *
 * Writes bench/results/soak-<date>[-quick].{json,md} and a heap chart. `SOAK_QUICK=1` runs a
 * small version; `--phase runtime|operator` runs one phase; env knobs in docs/bench.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { canForceGc } from './heap.js';
import { runOperatorPhase, type OperatorPhaseResult } from './operator-phase.js';
import { renderSoakReport } from './report.js';
import { runRuntimePhase, type RuntimePhaseResult } from './runtime-phase.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const QUICK = process.env.SOAK_QUICK === '1';
const OUT_DIR = process.env.SOAK_OUT ?? resolve(ROOT, 'bench/results');

function num(name: string, full: number, quick: number): number {
  const raw = process.env[name];
  return raw !== undefined && raw !== '' ? Number(raw) : QUICK ? quick : full;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { phase: { type: 'string' } } });
  const phase = values.phase ?? 'all';
  if (!['all', 'runtime', 'operator'].includes(phase))
    throw new Error(`cannot run phase ${phase}: use runtime, operator or all`);
  let runtime: RuntimePhaseResult | undefined;
  let operator: OperatorPhaseResult | undefined;
  if (phase !== 'operator') {
    if (!canForceGc()) {
      process.stderr.write('cannot measure the heap: run with node --expose-gc\n');
      process.exit(2);
    }
    runtime = await runRuntimePhase({
      requests: num('SOAK_REQUESTS', 1_000_000, 20_000),
      events: num('SOAK_EVENTS', 100_000, 5_000),
      accounts: num('SOAK_ACCOUNTS', 8, 4),
      concurrency: num('SOAK_CONCURRENCY', 32, 16),
      ratePerAccount: num('SOAK_RATE_PER_ACCOUNT', 5_000, 5_000),
      sampleEveryMs: num('SOAK_SAMPLE_MS', 10_000, 1_000),
      maxSeconds: num('SOAK_MAX_SECONDS', 0, 0),
      watchObjects: 200,
      watchBatch: 500,
      stallTimeoutMs: 10_000,
      errorRate: 0.005,
      dropRate: 0.001,
    });
  }
  if (phase !== 'runtime') {
    operator = await runOperatorPhase({
      seconds: num('SOAK_OPERATOR_SECONDS', 600, 90),
      objects: num('SOAK_OPERATOR_OBJECTS', 12, 6),
      pollIntervalSeconds: 30,
      stallTimeoutSeconds: 10,
      settleTimeoutMs: 180_000,
    });
  }
  const date = new Date().toISOString().slice(0, 10);
  const suffix = `${QUICK ? '-quick' : ''}${phase === 'all' ? '' : `-${phase}`}`;
  const base = `soak-${date}${suffix}`;
  const out = renderSoakReport({ base, quick: QUICK, runtime, operator });
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(resolve(OUT_DIR, `${base}.json`), `${JSON.stringify(out.json, null, 2)}\n`);
  if (out.svg) writeFileSync(resolve(OUT_DIR, `${base}-heap.svg`), out.svg);
  writeFileSync(resolve(OUT_DIR, `${base}.md`), out.md);
  process.stdout.write(`${out.md}\n`);
  if (!out.pass) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`soak failed: ${String((err as Error).stack ?? err)}\n`);
  process.exit(1);
});
