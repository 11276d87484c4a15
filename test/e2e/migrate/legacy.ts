/**
 * The legacy group for the migration e2e: the CRDs of `cdn.operator.io/v1alpha1` exactly as the
 * release of 72f93ad shipped them (fixtures/crds-72f93ad), and objects in it as the older operator
 * left them (finalizer, status).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { LEGACY_API_GROUP, LEGACY_GROUP_VERSION } from '../../../src/api-group.js';
import { findKind } from '../../../src/controllers/kinds.js';
import { applyFieldMoves, plainStore } from '../../../src/cli/migrate/field-moves.js';
import { FINALIZER } from '../../../src/runtime/reasons.js';
import type { KubeClient } from '../../../src/runtime/kube-client.js';
import { applyCrd, kubectlRaw } from '../support/kube.js';

interface Crd {
  metadata: { name: string };
  spec: {
    group: string;
    names: { plural: string; shortNames?: string[]; categories?: string[] };
    versions: { name: string }[];
  };
}

const LEGACY_VERSION = LEGACY_GROUP_VERSION.split('/')[1] ?? '';

/** The legacy CRDs (one per kind), as JSON. */
export function legacyCrds(): Crd[] {
  const dir = join(import.meta.dirname, 'fixtures', 'crds-72f93ad');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => {
      const crd = parse(readFileSync(join(dir, f), 'utf8')) as Crd;
      if (crd.spec.group !== LEGACY_API_GROUP || crd.spec.versions[0]?.name !== LEGACY_VERSION) {
        throw new Error(`cannot use ${f} as a legacy CRD: not ${LEGACY_GROUP_VERSION}`);
      }
      // Without short names and categories: other e2e files share the apiserver, and their
      // `kubectl get pzc` must not resolve to the legacy group while these CRDs exist.
      delete crd.spec.names.shortNames;
      delete crd.spec.names.categories;
      return crd;
    });
}

/** Installs the legacy CRDs and waits until each is Established. */
export async function installLegacyCrds(): Promise<void> {
  for (const crd of legacyCrds()) await applyCrd(JSON.stringify(crd), crd.metadata.name);
}

/** Removes the legacy CRDs (and so any object left in them). */
export async function removeLegacyCrds(): Promise<void> {
  for (const crd of legacyCrds()) {
    await kubectlRaw(['delete', 'crd', crd.metadata.name, '--ignore-not-found', '--wait=false']);
  }
}

/** A manifest of one of the operator's kinds (plain JSON). */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

/** The path of the legacy object of `m` in `ns`. */
export function legacyPath(m: Pick<Manifest, 'kind' | 'metadata'>, ns: string): string {
  const kind = findKind(m.kind);
  if (!kind) throw new Error(`cannot find kind ${m.kind}`);
  return `/apis/${LEGACY_GROUP_VERSION}/namespaces/${ns}/${kind.plural}/${m.metadata.name}`;
}

/**
 * Creates `m` (of the legacy group) in `ns` as the older operator left it: its finalizer on,
 * and its status (`statusOf` its uid) written through the status subresource. Answers the
 * object created.
 */
export async function createLegacyObject(
  kube: KubeClient,
  m: Manifest,
  ns: string,
  statusOf: (uid: string) => Record<string, unknown>,
): Promise<{ apiVersion: string; kind: string; metadata: { name: string; uid: string } }> {
  const path = legacyPath(m, ns);
  const created = await kube.request<{
    apiVersion: string;
    kind: string;
    metadata: { name: string; uid: string };
  }>({
    method: 'POST',
    path: path.slice(0, path.lastIndexOf('/')),
    body: { ...m, metadata: { ...m.metadata, namespace: ns, finalizers: [FINALIZER] } },
  });
  await kube.request({
    method: 'PATCH',
    path: `${path}/status`,
    body: { status: statusOf(created.metadata.uid) },
    contentType: 'application/merge-patch+json',
  });
  return created;
}

/**
 * `obj` (a spec or status under its root key) with the names of v1alpha1: the kind's
 * `legacyMoves` undone, last first — what the older operator wrote where the new one writes
 * the new names.
 */
export function withLegacyNames(
  kind: string,
  obj: Record<string, unknown>,
): Record<string, unknown> {
  const undo = [...(findKind(kind)?.legacyMoves ?? [])].reverse().map((m) => ({
    from: m.to,
    to: m.from,
    ...(m.values
      ? { values: Object.fromEntries(Object.entries(m.values).map(([a, b]) => [b, a])) }
      : {}),
  }));
  const copy = structuredClone(obj);
  applyFieldMoves(plainStore(copy), undo);
  for (const m of findKind(kind)?.legacyMoves ?? []) {
    if (m.toInteger) stringifyAt(copy, m.from.replace(/\[\]/g, '.[]').split('.').filter(Boolean));
  }
  return copy;
}

/** Turns the integers at `path` (`[]`: every list item) back into strings, as v1alpha1 had them. */
function stringifyAt(node: unknown, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (head === '[]') {
    if (Array.isArray(node)) for (const item of node as unknown[]) stringifyAt(item, rest);
    return;
  }
  if (rest.length === 0) {
    if (typeof record[head] === 'number') record[head] = String(record[head]);
    return;
  }
  stringifyAt(record[head], rest);
}
