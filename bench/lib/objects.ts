/**
 * Manifests of the operator's kinds for the bench and bulk creation through the Kubernetes API
 * (one POST per object, a bounded number in flight, the bench's admin identity). The kinds and
 * their minimal objects come from the list of kinds (src/controllers/kinds.ts, each kind's
 * `sample`), so a new kind with a sample joins the bench with no edit here.
 */
import { type KindModule } from '../../src/controllers/kind-module.js';
import { collectionPathOf, typeMetaOf } from '../../src/controllers/kind-names.js';
import { findKind, KINDS } from '../../src/controllers/kinds.js';
import { PULL_ZONE_CONFIG } from '../../src/controllers/pullzoneconfig/kind.js';
import { isKubeStatus, KubeApiError, type KubeClient } from '../../src/runtime/kube-client.js';
import { mapLimit } from './stats.js';

/**
 * The kinds the bench creates in bulk (those with a sample), in list order: a kind comes after
 * the kinds its sample refers to.
 */
export const BENCH_KINDS: readonly KindModule[] = KINDS.filter((k) => k.sample !== undefined);

/** A kind name (`PullZoneConfig`). */
export type KindName = string;

/** A manifest (plain JSON). */
export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
};

/** The kind named `kind`; throws for a kind the operator does not serve. */
export function kindNamed(kind: KindName): KindModule {
  const found = findKind(kind);
  if (!found) throw new Error(`cannot use kind ${kind}: not in the list of kinds`);
  return found;
}

/**
 * The sample object `name` of `kind`; `refs(kind)` names the objects of the kinds its sample
 * refers to (a ShieldPolicy's PullZoneConfig).
 */
export function sampleManifest(
  kind: KindModule,
  namespace: string,
  name: string,
  refs: (kind: KindName) => string = () => name,
): Manifest {
  if (!kind.sample) throw new Error(`cannot create a ${kind.kind}: the kind has no sample`);
  return {
    ...typeMetaOf(kind),
    metadata: { name, namespace },
    spec: kind.sample.spec(name, refs),
  };
}

/**
 * `perKind` sample objects of each kind of `kinds`: object i of a kind is named
 * `<short name>-<i>` and refers to object i of the kinds its sample refers to.
 */
export function sampleFleet(
  kinds: readonly KindModule[],
  namespace: string,
  perKind: number,
): Map<KindName, Manifest[]> {
  const moduleOf = (k: KindName): KindModule => kinds.find((m) => m.kind === k) ?? kindNamed(k);
  const prefix = (k: KindName): string => moduleOf(k).shortNames[0] ?? k.toLowerCase();
  return new Map(
    kinds.map((k) => [
      k.kind,
      Array.from({ length: perKind }, (_, i) =>
        sampleManifest(k, namespace, objectName(prefix(k.kind), i), (ref) =>
          objectName(prefix(ref), i),
        ),
      ),
    ]),
  );
}

/** A PullZoneConfig with one origin URL (`extra`: more settings). */
export function pullZoneManifest(
  namespace: string,
  name: string,
  extra: Record<string, unknown> = {},
): Manifest {
  const m = sampleManifest(PULL_ZONE_CONFIG, namespace, name);
  const settings = (m.spec.settings ?? {}) as Record<string, unknown>;
  return { ...m, spec: { ...m.spec, settings: { ...settings, ...extra } } };
}

/** API path of a kind's collection in a namespace. */
export function collectionPath(namespace: string, kind: KindName): string {
  return collectionPathOf(kindNamed(kind), namespace);
}

/** Creates every manifest (`concurrency` in flight); returns [firstStart, lastDone] ms. */
export async function createAll(
  kube: KubeClient,
  manifests: Manifest[],
  concurrency = 16,
): Promise<{ startedAt: number; doneAt: number }> {
  const startedAt = Date.now();
  await mapLimit(manifests, concurrency, (m) => createOne(kube, m));
  return { startedAt, doneAt: Date.now() };
}

/** Attempts per object: a loaded apiserver drops a connection now and then in a long run. */
const CREATE_ATTEMPTS = 5;

/** True for a failure worth another attempt: no answer, 429 or 5xx. */
function isTransient(err: unknown): boolean {
  if (!(err instanceof KubeApiError)) return false;
  const s = err.statusCode;
  return s === undefined || s === 429 || s >= 500;
}

/**
 * Creates one object, again after a transient failure; a 409 after such a failure means the
 * lost attempt created it.
 */
async function createOne(kube: KubeClient, m: Manifest): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await kube.request({
        method: 'POST',
        path: collectionPath(m.metadata.namespace, m.kind),
        body: m,
        timeoutMs: 120_000,
      });
      return;
    } catch (err) {
      if (attempt > 1 && isKubeStatus(err, 409)) return;
      if (attempt >= CREATE_ATTEMPTS || !isTransient(err)) throw err;
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

/** Merge-patches one object's spec. */
export async function patchSpec(
  kube: KubeClient,
  namespace: string,
  kind: KindName,
  name: string,
  spec: Record<string, unknown>,
): Promise<void> {
  await kube.request({
    method: 'PATCH',
    path: `${collectionPath(namespace, kind)}/${name}`,
    contentType: 'application/merge-patch+json',
    body: { spec },
  });
}

/** Zero-padded object name `prefix-000123`. */
export function objectName(prefix: string, i: number, width = 5): string {
  return `${prefix}-${String(i).padStart(width, '0')}`;
}
