/**
 * The null-controller baseline of a matrix cell (issue 32): the same N objects created and
 * then updated as in the cell, reconciled by the null controller (bench/lib/null-controller.ts:
 * the operator's Kubernetes writes per object, no platform behind them) in a process of its
 * own. Its times are what this machine's apiserver, etcd and a controller's bookkeeping cost
 * at best; the report divides each phase by max(platform ceiling, null time), and calls a
 * cell machine-bound only when the null time is the larger.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiVersionOfKind } from '../../src/controllers/kinds.js';
import type { BenchEnv } from '../lib/env.js';
import { WRITE_VERBS } from '../lib/audit.js';
import { collectionPath, createAll, objectName, pullZoneManifest } from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { mapLimit, sleep } from '../lib/stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The client identity of the null controller (its own lines in the audit log). */
export const NULL_USER = 'cdn-operator-null';

/** Parameters of one baseline. */
export interface NullBaselineParams {
  n: number;
  namespace: string;
  prefix: string;
  workers: number;
  /** Status of an object the operator reconciled in the cell (written as is, per object). */
  statusTemplate: Record<string, unknown>;
  /** The value the update phase sets (as the cell's update does). */
  value: number;
  timeoutMs: number;
}

/** What the baseline measured. */
export interface NullBaselineResult {
  n: number;
  namespace: string;
  /** First POST to the last object Ready; null when timed out. */
  createMs: number | null;
  createRequestsMs: number;
  /** First patch to the last status that observed the patched generation; null when timed out. */
  updateMs: number | null;
  patchRequestsMs: number;
  /** Null controller writes per create (audit), Events excluded. */
  kubeWritesPerCreate: number;
  /**
   * The null controller's own event-loop lag p99 per 5 s window during the create, as
   * `[seconds since the first POST, ms]` (the operator's lag series, measured the same way).
   */
  createLagSeries?: Array<[number, number]>;
}

/** A started null controller and the lag windows it has reported so far. */
export interface NullChild {
  child: ChildProcess;
  /** `[epoch ms at the window's end, p99 ms]`. */
  lags: Array<[number, number]>;
}

/** The `NULL-LAG` lines in a chunk of the child's output. */
export function parseLagLines(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(/^NULL-LAG (\d+) ([\d.]+)$/gm))
    out.push([Number(m[1]), Number(m[2])]);
  return out;
}

/** The windows that ended after `from` and began before `to`, as seconds since `from`. */
export function lagWindows(
  lags: ReadonlyArray<[number, number]>,
  from: number,
  to: number,
  windowMs = 5000,
): Array<[number, number]> {
  return lags
    .filter(([at]) => at > from && at - windowMs < to)
    .map(([at, ms]) => [(at - from) / 1000, ms]);
}

/**
 * Starts a null controller on collection `path` (objects of `apiVersion`, default our
 * PullZoneConfig's) and waits until it watches.
 */
export async function startNull(
  kubeconfig: string,
  path: string,
  workers: number,
  statusTemplate: Record<string, unknown>,
  apiVersion = apiVersionOfKind('PullZoneConfig'),
): Promise<NullChild> {
  const options = {
    kubeconfig,
    path,
    workers,
    statusTemplate,
    apiVersion,
    kind: 'PullZoneConfig',
  };
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      resolve(ROOT, 'bench/lib/null-controller-main.ts'),
      JSON.stringify(options),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lags: Array<[number, number]> = [];
  // Lines are short and written whole: a chunk never splits one on this pipe in practice, and
  // a split line is only a lost window.
  child.stdout?.on('data', (c: Buffer) => lags.push(...parseLagLines(c.toString())));
  await new Promise<void>((ready, reject) => {
    let err = '';
    child.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('NULL-READY')) ready();
    });
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => reject(new Error(`null controller exited with ${code}: ${err}`)));
  });
  child.stderr?.resume();
  return { child, lags };
}

/** Stops a null controller (SIGTERM, then SIGKILL after 10 s). */
export async function stopNull({ child }: NullChild): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Patches every object's setting; returns name -> the generation the patch produced. */
async function patchAll(
  env: BenchEnv,
  path: string,
  names: string[],
  value: number,
): Promise<Map<string, number>> {
  const generations = new Map<string, number>();
  await mapLimit(names, 16, async (name) => {
    const o = await env.kube.request<{ metadata: { generation?: number } }>({
      method: 'PATCH',
      path: `${path}/${name}`,
      contentType: 'application/merge-patch+json',
      body: { spec: { settings: { cacheControlMaxAgeOverrideSeconds: value } } },
      timeoutMs: 120_000,
    });
    generations.set(name, o.metadata.generation ?? 1);
  });
  return generations;
}

function lastObserved(tracker: ReadyTracker, wanted: Map<string, number>): number | undefined {
  let last = 0;
  for (const [name, gen] of wanted) {
    const seen = tracker.observedAt.get(name);
    if (!seen || seen[0] < gen) return undefined;
    last = Math.max(last, seen[1]);
  }
  return last;
}

/** Runs the baseline in its own namespace (created by the caller). */
export async function runNullBaseline(
  env: BenchEnv,
  p: NullBaselineParams,
  log: (msg: string) => void,
): Promise<NullBaselineResult> {
  const path = collectionPath(p.namespace, 'PullZoneConfig');
  const kubeconfig = env.userKubeconfig(NULL_USER);
  if (!kubeconfig) throw new Error(`cannot run the null baseline: no identity ${NULL_USER}`);
  const tracker = new ReadyTracker(env.kube, path);
  tracker.start();
  const child = await startNull(kubeconfig, path, p.workers, p.statusTemplate);
  const result: NullBaselineResult = {
    n: p.n,
    namespace: p.namespace,
    createMs: null,
    createRequestsMs: 0,
    updateMs: null,
    patchRequestsMs: 0,
    kubeWritesPerCreate: 0,
  };
  try {
    const names = Array.from({ length: p.n }, (_, i) => objectName(p.prefix, i));
    const t0 = Date.now();
    const created = await createAll(
      env.kube,
      names.map((name) => pullZoneManifest(p.namespace, name)),
    );
    result.createRequestsMs = created.doneAt - created.startedAt;
    await tracker.waitUntil(() => tracker.readyAt.size >= p.n, p.timeoutMs, `${p.n} Ready`);
    result.createMs = Math.max(...tracker.readyAt.values()) - t0;
    result.createLagSeries = lagWindows(child.lags, t0, t0 + result.createMs);
    await sleep(2000); // trailing Events
    await env.audit.refresh();
    const window = { from: t0, user: NULL_USER, verbs: WRITE_VERBS };
    result.kubeWritesPerCreate =
      (env.audit.count(window) - env.audit.count({ ...window, resource: 'events' })) / p.n;
    log(`null baseline n=${p.n}: create ${result.createMs} ms`);
    const t1 = Date.now();
    const wanted = await patchAll(env, path, names, p.value);
    result.patchRequestsMs = Date.now() - t1;
    await tracker.waitUntil(
      () => lastObserved(tracker, wanted) !== undefined,
      p.timeoutMs,
      `${p.n} statuses observed the update`,
    );
    result.updateMs = (lastObserved(tracker, wanted) ?? t1) - t1;
    log(`null baseline n=${p.n}: update ${result.updateMs} ms`);
  } catch (err) {
    log(`null baseline n=${p.n}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await stopNull(child);
    await tracker.stop();
  }
  return result;
}
