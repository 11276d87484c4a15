/**
 * The names of a kind (kind, plural, short names, scope) and what derives from them: the
 * runtime's names, `apiVersion`/`kind`, the CRD name and file, API paths. Each kind keeps its
 * names in its types.ts; its KindModule (kind.ts) adds the lazy parts (kind-module.ts).
 */
import { API_GROUP, API_VERSION, GROUP_VERSION } from '../api-group.js';
import type { ManagedKind } from '../runtime/types.js';

/** The names of one kind. */
export interface KindNames {
  /** `PullZoneConfig`; lowercased, it is the folder (`src/controllers/pullzoneconfig/`). */
  readonly kind: string;
  /** `pullzoneconfigs`. */
  readonly plural: string;
  /** kubectl short names (`pzc`). */
  readonly shortNames: readonly string[];
  /** Namespaced kinds are reconciled; a cluster-scoped kind (CdnAccount) is read by the operator. */
  readonly scope: 'Namespaced' | 'Cluster';
}

/** The kind's group, version and names as the runtime's {@link ManagedKind} spells them. */
export function managedNames(
  k: KindNames,
): Pick<ManagedKind, 'name' | 'group' | 'version' | 'kind' | 'plural'> {
  return {
    name: k.kind.toLowerCase(),
    group: API_GROUP,
    version: API_VERSION,
    kind: k.kind,
    plural: k.plural,
  };
}

/** `apiVersion` and `kind` of the kind's objects. */
export function typeMetaOf(k: Pick<KindNames, 'kind'>): { apiVersion: string; kind: string } {
  return { apiVersion: GROUP_VERSION, kind: k.kind };
}

/** The CRD's name, `<plural>.<group>`, also kubectl's resource name. */
export function crdNameOf(k: Pick<KindNames, 'plural'>): string {
  return `${k.plural}.${API_GROUP}`;
}

/** The generated CRD file, relative to the repository root (`crds/<group>_<plural>.yaml`). */
export function crdFileOf(k: Pick<KindNames, 'plural'>): string {
  return `crds/${API_GROUP}_${k.plural}.yaml`;
}

/** The API path of the kind's objects in `namespace` (a cluster-scoped kind ignores it). */
export function collectionPathOf(
  k: Pick<KindNames, 'plural' | 'scope'>,
  namespace?: string,
): string {
  const ns = k.scope === 'Namespaced' && namespace ? `/namespaces/${namespace}` : '';
  return `/apis/${GROUP_VERSION}${ns}/${k.plural}`;
}

/** True for an `apiVersion` of the operator's group (any version). */
export function isOwnApiVersion(apiVersion: string | undefined): boolean {
  return apiVersion?.startsWith(`${API_GROUP}/`) === true;
}
