/**
 * Heap per cached managed object, measured in one process (issue 17): N realistic
 * PullZoneConfigs (as the apiserver returns them after a `kubectl apply` and the operator's
 * create: managedFields, last-applied annotation, finalizer, signed marker, full status) go
 * through the real Informer (list from a fake client) into its cache, the claim index, the
 * reference index, the status writer's memo, the event recorder's dedupe map and one
 * work-queue timer each, as after a cold create. Heap is read after forced GCs; the figure is
 * the slope between N = 1,000 and N = 10,000.
 *
 *   node --expose-gc --import tsx bench/heap-per-object.ts [n1] [n2]
 */
import { pino } from 'pino';
import { Informer } from '../src/runtime/informer.js';
import { ClaimIndex } from '../src/runtime/claims.js';
import { claimsOfObject } from '../src/runtime/claims-policy.js';
import { ReferenceIndex } from '../src/runtime/references.js';
import { StatusWriter } from '../src/runtime/status-writer.js';
import { EventRecorder } from '../src/runtime/events.js';
import { WorkQueue } from '../src/runtime/workqueue.js';
import { objectKey } from '../src/runtime/resource.js';
import type { KubeClient } from '../src/runtime/kube-client.js';
import type { KubeObject } from '../src/runtime/cache.js';
import type { ManagedKind, ManagedObject } from '../src/runtime/types.js';
import { managedNames } from '../src/controllers/kind-names.js';
import { PULL_ZONE_CONFIG } from '../src/controllers/pullzoneconfig/kind.js';
import { REPORTING_CONTROLLER } from '../src/runtime/reasons.js';
import { realisticPullZoneConfig } from './lib/realistic-object.js';

const log = pino({ level: 'silent' });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('cannot measure: run node with --expose-gc');

const kind = {
  ...managedNames(PULL_ZONE_CONFIG),
  idStatusField: 'pullZoneId',
} as unknown as ManagedKind;

/** A KubeClient stand-in answering one LIST (JSON text parsed per page, like the real one). */
function fakeClient(n: number): KubeClient {
  const page = 500;
  return {
    request: ({ query }: { query?: { continue?: string } }) => {
      const from = Number(query?.continue ?? 0);
      const items = Array.from({ length: Math.min(page, n - from) }, (_, i) =>
        realisticPullZoneConfig(from + i),
      );
      const next = from + page < n ? String(from + page) : undefined;
      const text = JSON.stringify({ metadata: { resourceVersion: '1', continue: next }, items });
      return Promise.resolve(JSON.parse(text) as unknown);
    },
    watch: ({ signal }: { signal?: AbortSignal }) =>
      new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve())),
  } as unknown as KubeClient;
}

interface World {
  informer: Informer<ManagedObject & KubeObject>;
  claims: ClaimIndex;
  refs: ReferenceIndex;
  status: StatusWriter;
  events: EventRecorder;
  queue: WorkQueue;
}

/** HEAP_SKIP (comma list): parts left out to size them. */
const skipped = new Set((process.env.HEAP_SKIP ?? '').split(','));

async function build(n: number): Promise<World> {
  const claims = new ClaimIndex();
  const refs = new ReferenceIndex();
  const informer = new Informer<ManagedObject & KubeObject>({
    client: fakeClient(n),
    type: { group: kind.group, version: kind.version, plural: kind.plural, kind: kind.kind },
    namespace: '',
    log,
    handlers: {
      onAdd: (o) => {
        // HEAP_SKIP (comma list) leaves parts out to size them: claims (both indexes),
        // claimindex, refindex, status, events, queue.
        if (skipped.has('claims')) return;
        if (!skipped.has('claimindex'))
          claims.set(kind.kind, o, claimsOfObject(kind, o), 'acc-0123456789ab');
        if (skipped.has('refindex')) return;
        refs.set({ controller: kind.name, key: `${o.metadata.namespace}/${o.metadata.name}` }, [
          { apiVersion: 'v1', kind: 'Secret', namespace: 'ops', name: 'cdn-credentials' },
        ]);
      },
    },
  });
  informer.start();
  await informer.waitForSync();
  // What the create's status write leaves behind: the writer's memo (server answer parsed).
  const status = new StatusWriter((obj, patch) =>
    Promise.resolve(JSON.parse(JSON.stringify({ ...obj, status: patch.status })) as ManagedObject),
  );
  const events = new EventRecorder({
    client: {
      request: () => Promise.resolve({ metadata: { name: 'e' } }),
    } as unknown as KubeClient,
    log,
    controller: REPORTING_CONTROLLER,
    instance: 'bench',
  });
  const queue = new WorkQueue();
  for (const obj of informer.store.list()) {
    const { lastSyncTime: _t, ...desired } = obj.status ?? {};
    if (!skipped.has('status')) await status.write({ ...obj, status: {} }, { ...desired });
    if (!skipped.has('events'))
      events.record(
        obj,
        'Normal',
        'CreatedExternalResource',
        `Created external resource ${String(obj.status?.pullZoneId)}`,
      );
    if (!skipped.has('queue'))
      queue.schedule(objectKey(obj.metadata.namespace, obj.metadata.name), 600_000);
  }
  await new Promise((r) => setTimeout(r, 50));
  return { informer, claims, refs, status, events, queue };
}

function heapUsed(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().heapUsed;
}

async function measure(n: number): Promise<{ world: World; heap: number }> {
  const world = await build(n);
  return { world, heap: heapUsed() };
}

async function stop(w: World): Promise<void> {
  await w.informer.stop();
  w.queue.shutdown();
}

const [n1, n2] = [Number(process.argv[2] ?? 1000), Number(process.argv[3] ?? 10000)];
const base = heapUsed();
const small = await measure(n1);
await stop(small.world);
const a = small.heap - base;
small.world = undefined as unknown as World;
const base2 = heapUsed();
const large = await measure(n2);
const b = large.heap - base2;
await stop(large.world);
const slope = (b - a) / (n2 - n1);
console.log(
  JSON.stringify({
    n1,
    heapN1Bytes: a,
    n2,
    heapN2Bytes: b,
    slopeBytesPerObject: Math.round(slope),
    slopeKiBPerObject: Number((slope / 1024).toFixed(2)),
  }),
);
process.exit(0);
