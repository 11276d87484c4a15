/**
 * End to end as a user sees it (issues 32, 45): `kubectl apply -f` of N PullZoneConfigs with
 * the operator running against the platform (L = 50 ms, no limit), from the start of the apply
 * to the last object Ready, and then `kubectl apply -f` of the same N with one spec field
 * changed, against the time `kubectl apply -f` of the same N objects (create, then the same
 * update) takes for a lone minimal CRD (bench/lib/minimal-crd.ts: same names, free-form schema,
 * alone in its API group, nothing reconciling it; run first and again last, so the yardstick
 * brackets the run). Between them, the same applies against the minimal CRDs of all our kinds
 * in one group (the one-group counterfactual: what a single API group would cost) and against
 * our CRD with no operator running split the difference into what kubectl pays for the size of
 * a group's OpenAPI document, what our schemas cost the apiserver, and what reconciling at the
 * same time adds; kubectl's own CPU seconds are counted for each apply
 * (bench/lib/kubectl-cpu.ts). Then the update of one field in all N through the Kubernetes API
 * (bench/scenarios/update-all.ts) against its platform ceiling, and last the Gadget test kind
 * added in a group of its own with the apply to our CRD repeated (bench/scenarios/apply-gadget.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { stringify } from 'yaml';
import { kubectlRaw } from '../../test/e2e/support/kube.js';
import type { BenchEnv } from '../lib/env.js';
import {
  diffRequestCounts,
  readRequestCounts,
  type RequestCounts,
} from '../lib/apiserver-requests.js';
import { runKubectlTimed } from '../lib/kubectl-cpu.js';
import { cpuSecondsOf } from '../lib/proc-cpu.js';
import { MATRIX } from '../lib/matrix.js';
import {
  bareCrdOf,
  bareGroupOf,
  loneGroupOf,
  MINIMAL_GROUP,
  minimalCrdOf,
  type CrdFacts,
} from '../lib/minimal-crd.js';
import { OPENAPI_WAIT_MS, openApiBytes, waitForOpenApi } from '../lib/openapi-documents.js';
import { collectionPath, objectName, pullZoneManifest, type Manifest } from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { rotatedOrder } from '../lib/round-order.js';
import { quantile } from '../lib/stats.js';
import { runGadgetStep, type GadgetResult, type GadgetRound } from './apply-gadget.js';
import { NULL_USER, startNull, stopNull } from './null-baseline.js';
import { runUpdateAll, type UpdateAllResult } from './update-all.js';

/** Parameters. */
export interface ApplyEndToEndParams {
  n: number;
  workers: number;
  /** Operator flags (the matrix's). */
  operatorArgs: string[];
  /** Our PullZoneConfig CRD as read from crds/ (the minimal ones are derived from it). */
  crd: CrdFacts;
  /** Every CRD of ours (the same-surface group gets a minimal CRD of each). */
  crds?: CrdFacts[];
  timeoutMs: number;
  /**
   * Interleaved rounds of the no-operator applies (lone minimal, ours, bare schema; default 1):
   * one apply of each moves by 10–40 % from run to run on a shared machine, so the goal's
   * figures are medians over rounds.
   */
  rounds?: number;
}

/**
 * One round of the applies with nothing reconciling: the lone minimal CRD, ours and the bare
 * schema, one after the other (each a create and then its update, in fresh namespaces).
 */
export interface NoOperatorRound {
  lone: ApplyTiming;
  ours: ApplyTiming;
  bare: ApplyTiming;
}

/** One `kubectl apply -f`: its wall seconds and the CPU seconds behind them. */
export interface ApplyTiming {
  wallS: number;
  kubectlCpuS: number;
  /** kube-apiserver + etcd during the apply. */
  serverCpuS?: number;
  /** The operator during the apply (only while it runs). */
  operatorCpuS?: number;
  /** Requests the apiserver served during the apply, by verb and resource (every client). */
  requests?: RequestCounts;
  /**
   * `kubectl apply -f` of the same objects right after, with one spec field changed
   * ({@link UPDATE_FIELD}); absent in results from before issue 45.
   */
  update?: ApplyTiming;
}

/** Results. */
export interface ApplyEndToEndResult {
  n: number;
  /** `kubectl version --client` of the kubectl used (`KUBECTL`, else the one on PATH). */
  kubectlVersion?: string;
  /**
   * Our CRD's group-version (`pullzones.cdn.operator.io/v1beta1`); absent in results from when
   * every kind shared one group (before issue 45).
   */
  oursGroupVersion?: string;
  /** `kubectl apply -f` of the N objects to the lone minimal CRD, seconds (before and after). */
  minimalApplyS: number[];
  /** The same applies, with kubectl's CPU. */
  lone?: ApplyTiming[];
  /**
   * To the minimal CRDs of all our kinds in one group: our API surface before issue 45 split it
   * into a group per family, kept as the counterfactual (what one group would cost).
   */
  sameSurface?: ApplyTiming;
  /** To our CRD with no operator running (admission alone). */
  oursNoOperator?: ApplyTiming;
  /**
   * To our CRD without descriptions and CEL rules, alone in its group (bench/lib/minimal-crd.ts
   * `bareCrdOf`), no operator running; absent in results from before.
   */
  bareSchema?: ApplyTiming;
  /**
   * Every round of the no-operator applies, the first being `lone[0]`, `oursNoOperator` and
   * `bareSchema`; absent in results from before.
   */
  noOperatorRounds?: NoOperatorRound[];
  /**
   * Whether the rounds' order rotated (bench/lib/round-order.ts); absent when every round ran
   * in the first round's order.
   */
  roundsRotated?: boolean;
  /** Bytes of the OpenAPI v3 documents kubectl parses: lone minimal, bare schema, ours. */
  docBytes?: { lone: number; bare: number; ours: number };
  /** `kubectl apply -f` of the N PullZoneConfigs with the operator running, seconds. */
  oursApplyS: number;
  oursKubectlCpuS?: number;
  /** That apply with the CPU seconds behind it. */
  ours?: ApplyTiming;
  /** Start of the apply to the last object Ready, seconds; null when timed out. */
  allReadyS: number | null;
  /** allReadyS ÷ the median lone minimal apply. */
  ratio: number | null;
  /**
   * Start of the update apply (`ours.update`) to the last object's status observing its new
   * generation (the operator done with it); null when timed out.
   */
  updateObservedS?: number | null;
  /**
   * The same apply to our CRD with the null controller reconciling meanwhile (the operator's
   * Kubernetes writes per object, no platform), until every object is Ready: what this machine
   * gives any controller that writes what ours writes (bench/lib/null-controller.ts).
   */
  nullReconciled?: ApplyTiming & { allReadyS: number | null };
  /**
   * The same applies (create, then the update) to the lone minimal CRD with the null controller
   * reconciling meanwhile: what the users of a one-kind operator making the same Kubernetes
   * writes pay on this machine, the yardstick of issue 45 with a controller running on both
   * sides. `allReadyS`: the create's start to the last object Ready.
   */
  loneReconciled?: ApplyTiming & { allReadyS: number | null };
  /** allReadyS ÷ max(median lone minimal apply, nullReconciled.allReadyS). */
  honestRatio?: number | null;
  update?: UpdateAllResult;
  /** The Gadget test kind added in a group of its own, and the apply repeated. */
  gadget?: GadgetResult;
}

/** The spec field (under `settings`) the update apply changes, and its new value. */
export const UPDATE_FIELD = { name: 'cacheControlMaxAgeOverrideSeconds', value: 4141 };

function yamlOf(manifests: Manifest[]): string {
  return manifests.map((m) => stringify(m)).join('---\n');
}

async function applyFile(env: BenchEnv, file: string, operatorPid?: number): Promise<ApplyTiming> {
  const server = env.cp.pids();
  const operator = operatorPid === undefined ? [] : [operatorPid];
  const requests0 = await readRequestCounts(env.kubeconfig);
  const [server0, operator0] = [await cpuSecondsOf(server), await cpuSecondsOf(operator)];
  const started = performance.now();
  const r = await runKubectlTimed(env.kubeconfig, ['apply', '-f', file]);
  if (r.code !== 0) throw new Error(`cannot apply ${file}: ${r.stderr.trim().slice(-400)}`);
  const wallS = (performance.now() - started) / 1000;
  const serverCpuS = (await cpuSecondsOf(server)) - server0;
  return {
    wallS,
    kubectlCpuS: r.cpuSeconds,
    serverCpuS,
    requests: diffRequestCounts(requests0, await readRequestCounts(env.kubeconfig)),
    ...(operatorPid === undefined
      ? {}
      : { operatorCpuS: (await cpuSecondsOf(operator)) - operator0 }),
  };
}

/**
 * Writes the N PullZoneConfigs of `namespace` as `group`'s (default: ours) to a file, with
 * {@link UPDATE_FIELD} changed when `updated`; returns the file.
 */
async function writeManifests(
  dir: string,
  p: ApplyEndToEndParams,
  namespace: string,
  updated: boolean,
  group = p.crd.group,
): Promise<string> {
  const extra = updated ? { [UPDATE_FIELD.name]: UPDATE_FIELD.value } : {};
  const manifests = Array.from({ length: p.n }, (_, i) => {
    const m = pullZoneManifest(namespace, objectName('e2e', i), extra);
    return { ...m, apiVersion: `${group}/${p.crd.version}` };
  });
  const file = join(dir, `${namespace}${updated ? '-updated' : ''}.yaml`);
  await writeFile(file, yamlOf(manifests));
  return file;
}

/**
 * `kubectl apply -f` of the N objects as `group`'s PullZoneConfigs in a new namespace, then of
 * the same N with one spec field changed (the update, nothing reconciling meanwhile).
 */
async function applyTo(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  group: string,
  namespace: string,
): Promise<ApplyTiming> {
  await env.createNamespace(namespace);
  const created = await applyFile(env, await writeManifests(dir, p, namespace, false, group));
  const update = await applyFile(env, await writeManifests(dir, p, namespace, true, group));
  return { ...created, update };
}

async function installYardsticks(env: BenchEnv, p: ApplyEndToEndParams): Promise<void> {
  const surface = (p.crds ?? [p.crd]).map((c) => JSON.stringify(minimalCrdOf(c)));
  const lone = JSON.stringify(minimalCrdOf(p.crd, loneGroupOf(p.crd)));
  const bare = JSON.stringify(bareCrdOf(p.crd, bareGroupOf(p.crd)));
  const options = { kubeconfig: env.kubeconfig };
  const installed = await kubectlRaw(
    ['apply', '-f', '-'],
    [...surface, lone, bare].join('\n'),
    options,
  );
  if (installed.code !== 0) throw new Error(`cannot install the minimal CRDs: ${installed.stderr}`);
  await kubectlRaw(
    ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=120s'],
    undefined,
    options,
  );
  const served = [loneGroupOf(p.crd), bareGroupOf(p.crd), MINIMAL_GROUP, p.crd.group].map(
    (g) => `apis/${g}/${p.crd.version}`,
  );
  await waitForOpenApi(env.kube, (index) => served.every((s) => index[s]), OPENAPI_WAIT_MS);
}

/**
 * One object of `group` created and then updated with kubectl, unmeasured, in a namespace of
 * its own. After a CRD is added or removed the apiserver rebuilds its OpenAPI documents on the
 * first request for them, and kubectl's first patch fetches the cluster's whole v2 document; the
 * first measured apply after the change would pay that rebuild (seconds at small N).
 */
async function warmUp(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  group: string,
  namespace: string,
): Promise<void> {
  await applyTo(env, dir, { ...p, n: 1 }, group, namespace);
}

/** Where a controller reconciles the applied objects: their namespace, its process, the watch. */
interface Reconciling {
  namespace: string;
  controllerPid: number | undefined;
  tracker: ReadyTracker;
  /** The objects' API group (default: ours). */
  group?: string;
}

/**
 * `kubectl apply -f` of the N PullZoneConfigs into `rec.namespace` while the controller
 * reconciles them; the apply's timing (also given to `onApplied` as soon as the apply ends) and
 * the seconds from its start to the last object Ready.
 */
async function applyUntilReady(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  { namespace, controllerPid, tracker, group }: Reconciling,
  onApplied?: (applied: ApplyTiming) => void,
): Promise<ApplyTiming & { allReadyS: number }> {
  const file = await writeManifests(dir, p, namespace, false, group);
  const t0 = Date.now();
  const applied = await applyFile(env, file, controllerPid);
  onApplied?.(applied); // kept when the wait for Ready times out
  await tracker.waitUntil(() => tracker.readyAt.size >= p.n, p.timeoutMs, `${p.n} Ready`);
  return { ...applied, allReadyS: (Math.max(...tracker.readyAt.values()) - t0) / 1000 };
}

/**
 * `kubectl apply -f` of the N objects of `rec.namespace` with {@link UPDATE_FIELD} changed while
 * the controller reconciles them; the apply's timing goes to `onApplied`, the seconds from its
 * start to the last object's status observing its new generation are returned.
 */
async function applyUpdateUntilObserved(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  { namespace, controllerPid, tracker, group }: Reconciling,
  onApplied: (applied: ApplyTiming) => void,
): Promise<number> {
  const before = new Map(
    [...tracker.objects].map(([name, o]) => [name, o.metadata.generation ?? 0]),
  );
  const file = await writeManifests(dir, p, namespace, true, group);
  const t0 = Date.now();
  onApplied(await applyFile(env, file, controllerPid));
  const caughtUp = (): boolean =>
    [...before].every(([name, generation]) => {
      const now = tracker.objects.get(name)?.metadata.generation ?? 0;
      return now > generation && (tracker.observedAt.get(name)?.[0] ?? 0) >= now;
    });
  await tracker.waitUntil(caughtUp, p.timeoutMs, `${p.n} updates observed`);
  return (
    (Math.max(...[...before.keys()].map((n) => tracker.observedAt.get(n)?.[1] ?? t0)) - t0) / 1000
  );
}

/** Where the null controller reconciles: our CRD, or the lone minimal one. */
interface NullTarget {
  namespace: string;
  /** The objects' API group (their version and plural are ours). */
  group: string;
  /** Also apply the update and wait until the null controller observed it. */
  update: boolean;
}

/**
 * The apply to `target.group`'s PullZoneConfigs with the null controller reconciling (its own
 * identity and process), until every object is Ready, then (when asked) the update apply: the
 * end-to-end time of a controller making our Kubernetes writes with no platform behind it.
 */
async function runNullReconciled(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  statusTemplate: Record<string, unknown>,
  target: NullTarget,
): Promise<ApplyTiming & { allReadyS: number | null }> {
  const { namespace, group } = target;
  await env.createNamespace(namespace);
  const kubeconfig = env.userKubeconfig(NULL_USER);
  if (!kubeconfig) throw new Error(`cannot run the null controller: no identity ${NULL_USER}`);
  const path = `/apis/${group}/${p.crd.version}/namespaces/${namespace}/${p.crd.plural}`;
  const tracker = new ReadyTracker(env.kube, path);
  tracker.start();
  const apiVersion = `${group}/${p.crd.version}`;
  const child = await startNull(kubeconfig, path, p.workers, statusTemplate, apiVersion);
  try {
    const rec: Reconciling = { namespace, controllerPid: child.child.pid, tracker, group };
    const created = await applyUntilReady(env, dir, p, rec);
    if (!target.update) return created;
    let update: ApplyTiming | undefined;
    await applyUpdateUntilObserved(env, dir, p, rec, (a) => (update = a));
    return { ...created, ...(update ? { update } : {}) };
  } finally {
    await stopNull(child);
    await tracker.stop();
  }
}

/** Our apply with the operator running, until every object is Ready; then the update. */
async function runOurs(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  result: ApplyEndToEndResult,
  log: (msg: string) => void,
  template: { status?: Record<string, unknown> },
): Promise<void> {
  const config = MATRIX.find((c) => c.id === 'l50') ?? MATRIX[0];
  if (!config) throw new Error('cannot run end to end: no l50 configuration');
  const namespace = 'e2e-ours';
  await env.createNamespace(namespace);
  await env.sim.resetState();
  await env.sim.setFaults({ latencyMs: config.latencyMs });
  const op = await env.startOperator('bench', {
    args: [...p.operatorArgs, '--namespace', namespace, '--secret-namespace', `bench,${namespace}`],
  });
  const tracker = new ReadyTracker(env.kube, collectionPath(namespace, 'PullZoneConfig'));
  tracker.start();
  try {
    const rec: Reconciling = { namespace, controllerPid: op.pid, tracker };
    const { allReadyS } = await applyUntilReady(env, dir, p, rec, (a) => {
      result.ours = a;
      result.oursApplyS = a.wallS;
      result.oursKubectlCpuS = a.kubectlCpuS;
    });
    result.allReadyS = allReadyS;
    template.status = [...tracker.objects.values()].find((o) => o.status)?.status;
    log(
      `end to end n=${p.n}: apply ${result.oursApplyS.toFixed(1)} s, all Ready ${result.allReadyS.toFixed(1)} s`,
    );
    result.updateObservedS = null; // until every update is observed
    result.updateObservedS = await applyUpdateUntilObserved(env, dir, p, rec, (a) => {
      if (result.ours) result.ours.update = a;
    });
    log(
      `end to end n=${p.n}: update apply ${result.ours?.update?.wallS.toFixed(1)} s, all observed ${result.updateObservedS.toFixed(1)} s`,
    );
    result.update = await runUpdateAll(
      env,
      config,
      { namespace, workers: p.workers, value: 4242, timeoutMs: p.timeoutMs },
      log,
    );
  } finally {
    await tracker.stop();
    await env.stopOperator(op);
  }
}

/** The client version of the kubectl the scenario runs (its figures depend on it). */
async function kubectlVersion(env: BenchEnv): Promise<string> {
  const r = await kubectlRaw(['version', '--client', '-o', 'json'], undefined, {
    kubeconfig: env.kubeconfig,
  });
  try {
    const v = JSON.parse(r.stdout) as { clientVersion?: { gitVersion?: string } };
    return v.clientVersion?.gitVersion ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `create … s, update … s` of an apply and its update, for the log. */
function timesText(t: ApplyTiming | undefined): string {
  return `create ${t?.wallS.toFixed(1)} s, update ${t?.update?.wallS.toFixed(1)} s`;
}

/**
 * Rounds `from`…`p.rounds - 1` of `kubectl apply` (each a create and then its update) to the
 * groups of `groupOf`, one side after another in `groupOf`'s order rotated by one place each
 * round (bench/lib/round-order.ts), each in the namespace `namespaceOf` names.
 */
async function applyInRounds<S extends string>(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  groupOf: Record<S, string>,
  namespaceOf: (side: S, round: number) => string,
  from = 0,
): Promise<Record<S, ApplyTiming>[]> {
  const sides = Object.keys(groupOf) as S[];
  const out: Record<S, ApplyTiming>[] = [];
  for (let i = from; i < (p.rounds ?? 1); i++) {
    const round = {} as Record<S, ApplyTiming>;
    for (const side of rotatedOrder(sides, i))
      round[side] = await applyTo(env, dir, p, groupOf[side], namespaceOf(side, i));
    out.push(round);
  }
  return out;
}

/**
 * The rounds right before or after the Gadget is added: the lone minimal CRD's apply and ours,
 * in turns, after a warm-up of both (kubectl's discovery changes with the CRDs).
 */
async function runGadgetRounds(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  when: 'before' | 'after',
): Promise<GadgetRound[]> {
  const lone = loneGroupOf(p.crd);
  await warmUp(env, dir, p, p.crd.group, `e2e-warm-ours-gadget-${when}`);
  await warmUp(env, dir, p, lone, `e2e-warm-lone-gadget-${when}`);
  return await applyInRounds(
    env,
    dir,
    p,
    { lone, ours: p.crd.group },
    (side, i) => `e2e-${side}-gadget-${when}-r${i}`,
  );
}

/** The null controller's run and the Gadget step: each logged and skipped when it fails. */
async function runComparisons(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  result: ApplyEndToEndResult,
  log: (msg: string) => void,
  status: Record<string, unknown> | undefined,
): Promise<void> {
  if (status) {
    const failed = (what: string) => (err: unknown) => {
      log(`end to end n=${p.n}, null controller ${what}: ${messageOf(err)}`);
      return undefined;
    };
    result.nullReconciled = await runNullReconciled(env, dir, p, status, {
      namespace: 'e2e-null',
      group: p.crd.group,
      update: false,
    }).catch(failed('on our CRD'));
    await warmUp(env, dir, p, loneGroupOf(p.crd), 'e2e-warm-lone-null');
    result.loneReconciled = await runNullReconciled(env, dir, p, status, {
      namespace: 'e2e-lone-null',
      group: loneGroupOf(p.crd),
      update: true,
    }).catch(failed('on the lone minimal CRD'));
    if (result.loneReconciled)
      log(
        `end to end n=${p.n}: lone minimal with the null controller ${timesText(result.loneReconciled)}`,
      );
  }
  result.gadget = await runGadgetStep(env, p.crd, (when) =>
    runGadgetRounds(env, dir, p, when),
  ).catch((err: unknown) => {
    log(`end to end n=${p.n}, Gadget in another group: ${messageOf(err)}`);
    return undefined;
  });
  if (result.gadget)
    log(
      `end to end n=${p.n}: after the Gadget in ${result.gadget.group}, ours without the operator ${timesText(result.gadget.oursNoOperator)}`,
    );
}

/** Bytes of the OpenAPI v3 documents of the lone minimal, bare and our group-versions. */
async function docBytesOf(
  env: BenchEnv,
  crd: CrdFacts,
  groups: { lone: string; bare: string; ours: string },
): Promise<NonNullable<ApplyEndToEndResult['docBytes']>> {
  const size = (group: string): Promise<number> => openApiBytes(env.kube, group, crd.version);
  return {
    lone: await size(groups.lone),
    bare: await size(groups.bare),
    ours: await size(groups.ours),
  };
}

/** The namespace prefix of each side of the rounds with nothing reconciling. */
const ROUND_NAMESPACES = { lone: 'e2e-lone', ours: 'e2e-ours-alone', bare: 'e2e-bare' };

/**
 * Rounds 2…`p.rounds` of the applies with nothing reconciling (the first is the scenario's
 * opening applies), in the order lone minimal, ours, bare schema rotated each round.
 */
async function runMoreRounds(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  groups: { lone: string; bare: string },
): Promise<NoOperatorRound[]> {
  const groupOf = { lone: groups.lone, ours: p.crd.group, bare: groups.bare };
  return await applyInRounds(
    env,
    dir,
    p,
    groupOf,
    (side, i) => `${ROUND_NAMESPACES[side]}-r${i}`,
    1,
  );
}

/** Runs the scenario; the sim's faults are set here (L = 50 ms, no limit). */
export async function runApplyEndToEnd(
  env: BenchEnv,
  p: ApplyEndToEndParams,
  log: (msg: string) => void,
): Promise<ApplyEndToEndResult> {
  const dir = await mkdtemp(join(tmpdir(), 'cdn-e2e-apply-'));
  await installYardsticks(env, p);
  const lone = loneGroupOf(p.crd);
  const bare = bareGroupOf(p.crd);
  for (const [i, group] of [lone, bare, MINIMAL_GROUP, p.crd.group].entries())
    await warmUp(env, dir, p, group, `e2e-warm-${i}`);
  const first = await applyTo(env, dir, p, lone, 'e2e-lone-0');
  const result: ApplyEndToEndResult = {
    n: p.n,
    kubectlVersion: await kubectlVersion(env),
    oursGroupVersion: `${p.crd.group}/${p.crd.version}`,
    minimalApplyS: [first.wallS],
    lone: [first],
    sameSurface: await applyTo(env, dir, p, MINIMAL_GROUP, 'e2e-surface'),
    oursNoOperator: await applyTo(env, dir, p, p.crd.group, 'e2e-ours-alone'),
    bareSchema: await applyTo(env, dir, p, bare, 'e2e-bare'),
    docBytes: await docBytesOf(env, p.crd, { lone, bare, ours: p.crd.group }),
    oursApplyS: 0,
    allReadyS: null,
    ratio: null,
  };
  const { oursNoOperator, bareSchema } = result;
  if (oursNoOperator && bareSchema) {
    const more = await runMoreRounds(env, dir, p, { lone, bare });
    result.noOperatorRounds = [{ lone: first, ours: oursNoOperator, bare: bareSchema }, ...more];
    result.roundsRotated = true;
    // every lone apply is a sample of the yardstick
    result.minimalApplyS.push(...more.map((m) => m.lone.wallS));
    result.lone?.push(...more.map((m) => m.lone));
  }
  log(
    `end to end n=${p.n}, ${result.kubectlVersion}: lone minimal ${timesText(first)}; one group ${timesText(result.sameSurface)}; ours without the operator ${timesText(result.oursNoOperator)}`,
  );
  const template: { status?: Record<string, unknown> } = {};
  await runOurs(env, dir, p, result, log, template).catch((err: unknown) => {
    log(`end to end n=${p.n}: ${messageOf(err)}`);
  });
  await runComparisons(env, dir, p, result, log, template.status);
  await warmUp(env, dir, p, lone, 'e2e-warm-lone-1');
  const last = await applyTo(env, dir, p, lone, 'e2e-lone-1');
  result.minimalApplyS.push(last.wallS);
  result.lone?.push(last);
  const yardstick = quantile(result.minimalApplyS, 0.5);
  result.ratio = result.allReadyS === null ? null : result.allReadyS / yardstick;
  const nullS = result.nullReconciled?.allReadyS;
  if (nullS !== undefined && nullS !== null && result.allReadyS !== null)
    result.honestRatio = result.allReadyS / Math.max(yardstick, nullS);
  await rm(dir, { recursive: true, force: true });
  return result;
}
