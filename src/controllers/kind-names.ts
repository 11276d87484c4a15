/**
 * The names of a kind (kind, plural, short names, scope) and what derives from them: the
 * runtime's names, `apiVersion`/`kind`, the CRD name and file, API paths. Each kind keeps its
 * names in its types.ts; its KindModule (kind.ts) adds the lazy parts (kind-module.ts).
 */
import { API_VERSION, groupOf, isOwnGroup } from '../api-group.js';
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
  /** The family whose API group serves the kind (`dns`: `dns.cdn.operator.io`; docs/api.md). */
  readonly family: string;
  /**
   * How the platform names the kind's resources, for a kind that finds one by name (absent:
   * ShieldPolicy, found through its pull zone; CdnAccount, no platform resource).
   */
  readonly platformNames?: PlatformNames;
}

/**
 * `unique`: the platform refuses a second resource of a name, so a name proves that a lost
 * create was ours. `shared`: it does not, so the kind creates under a provisional name and
 * renames after (kit/identity.ts): a create costs one more write.
 */
export type PlatformNames = 'unique' | 'shared';

/**
 * The names of a kind that finds its platform resources by name: kit/identity.ts reads
 * `platformNames` from here, so it is declared once, beside the kind's names.
 */
export interface NamedResourceKind extends KindNames {
  readonly platformNames: PlatformNames;
}

/** The kind's API group (`dns.cdn.operator.io`). */
export function apiGroupOf(k: Pick<KindNames, 'family'>): string {
  return groupOf(k.family);
}

/** The `apiVersion` of the kind's objects (`dns.cdn.operator.io/v1beta1`). */
export function apiVersionOf(k: Pick<KindNames, 'family'>): string {
  return `${apiGroupOf(k)}/${API_VERSION}`;
}

/** The kind's group, version and names as the runtime's {@link ManagedKind} spells them. */
export function managedNames(
  k: KindNames,
): Pick<ManagedKind, 'name' | 'group' | 'version' | 'kind' | 'plural'> {
  return {
    name: k.kind.toLowerCase(),
    group: apiGroupOf(k),
    version: API_VERSION,
    kind: k.kind,
    plural: k.plural,
  };
}

/** `apiVersion` and `kind` of the kind's objects. */
export function typeMetaOf(k: Pick<KindNames, 'kind' | 'family'>): {
  apiVersion: string;
  kind: string;
} {
  return { apiVersion: apiVersionOf(k), kind: k.kind };
}

/** The CRD's name, `<plural>.<group>`, also kubectl's resource name. */
export function crdNameOf(k: Pick<KindNames, 'plural' | 'family'>): string {
  return `${k.plural}.${apiGroupOf(k)}`;
}

/** The generated CRD file, relative to the repository root (`crds/<group>_<plural>.yaml`). */
export function crdFileOf(k: Pick<KindNames, 'plural' | 'family'>): string {
  return `crds/${apiGroupOf(k)}_${k.plural}.yaml`;
}

/** The API path of the kind's objects in `namespace` (a cluster-scoped kind ignores it). */
export function collectionPathOf(
  k: Pick<KindNames, 'plural' | 'scope' | 'family'>,
  namespace?: string,
): string {
  const ns = k.scope === 'Namespaced' && namespace ? `/namespaces/${namespace}` : '';
  return `/apis/${apiVersionOf(k)}${ns}/${k.plural}`;
}

/** True for an `apiVersion` of one of the operator's groups (any version, the legacy group too). */
export function isOwnApiVersion(apiVersion: string | undefined): boolean {
  const slash = apiVersion?.indexOf('/') ?? -1;
  return slash > 0 && isOwnGroup(apiVersion!.slice(0, slash));
}
