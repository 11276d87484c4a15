/**
 * Kubernetes writes per create, per kind, on the real apiserver: a mixed fleet of the sample
 * objects of every kind (bench/lib/objects.ts: PullZoneConfigs, ShieldPolicies protecting them,
 * applied together so a policy may wait for its zone, ContainerApps, StorageZones) is created; a watch on each kind counts every change the
 * operator makes to every object (each write is a new resourceVersion; the test writes
 * nothing after the create). Events are other objects and are reported, not counted.
 * Goal: at most 2 writes per object (finalizer + signed create-pending marker, then one
 * status write with id and availability); 3 for the kinds whose platform names are not unique,
 * whose id is written before the same-pass rename that removes the create's proof (docs/kit.md).
 */
import test from 'ava';
import { findKind } from '../../../src/controllers/kinds.js';
import { KubeClient, loadKubeConfig } from '../../../src/runtime/kube-client.js';
import {
  BENCH_KINDS,
  collectionPath,
  sampleFleet,
  type Manifest,
} from '../../../bench/lib/objects.js';
import { conditionOf, kubectl, waitFor, type KubeJson } from '../support/kube.js';
import { startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';

const PER_KIND = 4;

/**
 * The most Kubernetes writes a create of `kind` may take: one more (the id before the rename)
 * where the platform's names are not unique, so the kind creates under a provisional name
 * (its `platformNames`, kind-names.ts; docs/kit.md).
 */
function writeBudget(kind: string): number {
  return findKind(kind, BENCH_KINDS)?.platformNames === 'shared' ? 3 : 2;
}
const SETTLE_MS = 5_000;

interface WatchEvent {
  type: string;
  object: KubeJson;
}

/** Counts MODIFIED events per object of one kind in one namespace. */
class WriteCounter {
  readonly modified = new Map<string, number>();
  readonly latest = new Map<string, KubeJson>();
  /** name -> a one-line summary of every change (for the failure message). */
  readonly history = new Map<string, string[]>();
  private readonly abort = new AbortController();
  private running?: Promise<void>;

  constructor(
    private readonly kube: KubeClient,
    private readonly path: string,
  ) {}

  async start(): Promise<void> {
    const list = await this.kube.request<{ metadata: { resourceVersion: string } }>({
      method: 'GET',
      path: this.path,
    });
    this.running = this.kube
      .watch({
        method: 'GET',
        path: this.path,
        query: { watch: true, resourceVersion: list.metadata.resourceVersion },
        signal: this.abort.signal,
        onLine: (line) => {
          const ev = JSON.parse(line) as WatchEvent;
          const name = ev.object.metadata.name;
          if (ev.type === 'MODIFIED') {
            this.modified.set(name, (this.modified.get(name) ?? 0) + 1);
            this.history.set(name, [...(this.history.get(name) ?? []), summarize(ev.object)]);
          }
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.latest.set(name, ev.object);
        },
      })
      .catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }
}

/** Finalizers, annotation keys and condition reasons of one version of an object. */
function summarize(o: KubeJson): string {
  const conditions =
    (o.status?.conditions as { type: string; reason?: string }[] | undefined) ?? [];
  return JSON.stringify({
    finalizers: o.metadata.finalizers?.length ?? 0,
    annotations: Object.keys(o.metadata.annotations ?? {}),
    conditions: conditions.map((c) => `${c.type}=${c.reason ?? ''}`),
    statusKeys: Object.keys(o.status ?? {}),
  });
}

let env: OperatorEnv;
let kube: KubeClient;

test.before(async () => {
  env = await startOperatorEnv('writes', 'e2e-writes-key');
  kube = await KubeClient.create(loadKubeConfig(process.env.KUBECONFIG));
});

test.after.always(async () => {
  kube?.close();
  await env?.stop();
});

/** PER_KIND sample objects of every kind of the bench (lib/objects.ts). */
function fleet(ns: string): Map<string, Manifest[]> {
  return sampleFleet(BENCH_KINDS, ns, PER_KIND);
}

function isReady(o: KubeJson | undefined): boolean {
  return conditionOf(o, 'Ready')?.status === 'True';
}

test('every kind: at most 2 Kubernetes writes per create, 3 under a provisional name (Events excluded)', async (t) => {
  const kinds = BENCH_KINDS.map((k) => k.kind);
  const counters = new Map(
    kinds.map((k) => [k, new WriteCounter(kube, collectionPath(env.ns, k))] as const),
  );
  for (const c of counters.values()) await c.start();
  const manifests = fleet(env.ns);
  // Applied together, in reverse list order: a kind before the kinds its objects refer to
  // (the worst case: policies wait for their zones).
  const all = [...manifests.values()].reverse().flat();
  await kubectl(
    ['create', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: all }),
  );
  await waitFor(
    () => {
      const ready = kinds.every((k) =>
        manifests.get(k)!.every((m) => isReady(counters.get(k)!.latest.get(m.metadata.name))),
      );
      return Promise.resolve(ready ? true : undefined);
    },
    120_000,
    'the whole fleet Ready',
    250,
  );
  // Trailing writes (a confirming pass, a late condition) would land within seconds.
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  for (const c of counters.values()) await c.stop();

  const events = JSON.parse(await kubectl(['get', 'events', '-n', env.ns, '-o', 'json'])) as {
    items: { involvedObject: { kind: string }; count?: number }[];
  };
  const failures: string[] = [];
  for (const k of kinds) {
    const c = counters.get(k)!;
    const perObject = manifests.get(k)!.map((m) => c.modified.get(m.metadata.name) ?? 0);
    const eventCount = events.items.filter((e) => e.involvedObject.kind === k).length;
    t.log(
      `${k}: writes per object ${JSON.stringify(perObject)} (mean ${(
        perObject.reduce((a, b) => a + b, 0) / perObject.length
      ).toFixed(
        2,
      )}); Event objects ${eventCount} (${(eventCount / PER_KIND).toFixed(2)} per object)`,
    );
    for (const [i, n] of perObject.entries()) {
      const name = manifests.get(k)![i]!.metadata.name;
      if (n > writeBudget(k))
        failures.push(`${k} ${name}: ${n} writes: ${(c.history.get(name) ?? []).join(' | ')}`);
    }
  }
  t.deepEqual(failures, [], 'no object took more Kubernetes writes than its kind allows');
});
