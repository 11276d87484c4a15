/**
 * The operator's domain and API groups. The domain (`cdn.operator.io`) names the annotations,
 * the finalizer and the event reporter the operator owns; each family of kinds is served in an
 * API group of its own under that domain (`dns.cdn.operator.io`), so that the OpenAPI document
 * kubectl reads for an object holds that family's kinds only (docs/api.md). The one place these
 * are spelled: the kinds (src/controllers/kind-names.ts), the runtime's annotation keys, the CRDs,
 * cdnctl, the bench and the demo all read them from here. A leaf module (no imports), so every
 * layer may use it.
 */

/** The operator's domain: annotation and label keys, the finalizer, the API groups' suffix. */
export const API_DOMAIN = 'cdn.operator.io';

/** The version every kind is served and stored as. */
export const API_VERSION = 'v1beta1';

/**
 * The families of kinds, one API group each (`<family>.cdn.operator.io`): what users apply
 * together, and small enough that kubectl's per-object cost stays that of a one-kind group.
 */
export const API_FAMILIES = [
  'pullzones',
  'storage',
  'dns',
  'shield',
  'containers',
  'accounts',
  'compute',
  'video',
  'routes',
] as const;

/** The API group of a family's kinds (a family is a DNS label, one of {@link API_FAMILIES}). */
export function groupOf(family: string): string {
  return `${family}.${API_DOMAIN}`;
}

/** True for an API group of the operator's (any family, or the legacy single group). */
export function isOwnGroup(group: string): boolean {
  return group === LEGACY_API_GROUP || group.endsWith(`.${API_DOMAIN}`);
}

/**
 * The single group every kind was served in up to v1alpha1; `cdnctl migrate` moves manifests
 * and live objects from it to the families' groups.
 */
export const LEGACY_API_GROUP = API_DOMAIN;

/** `apiVersion` of the objects of the legacy single group. */
export const LEGACY_GROUP_VERSION = `${LEGACY_API_GROUP}/v1alpha1`;

/** A name in the operator's domain: an annotation or label key, a finalizer (`<domain>/<name>`). */
export function groupKey(name: string): string {
  return `${API_DOMAIN}/${name}`;
}
