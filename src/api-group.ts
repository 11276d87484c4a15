/**
 * The API group of every custom resource the operator serves, and the domain of the
 * annotations, finalizer and event reporter it owns. The one place the group is spelled: the
 * kinds (src/controllers/kinds.ts), the runtime's annotation keys, the CRDs, cdnctl, the
 * bench and the demo all read it from here. A leaf module (no imports), so every layer may use
 * it.
 */

/** API group of the operator's kinds. */
export const API_GROUP = 'cdn.operator.io';

/** The version every kind is served and stored as. */
export const API_VERSION = 'v1alpha1';

/** `apiVersion` of every object of the operator's kinds. */
export const GROUP_VERSION = `${API_GROUP}/${API_VERSION}`;

/** A name in the operator's domain: an annotation or label key, a finalizer (`<group>/<name>`). */
export function groupKey(name: string): string {
  return `${API_GROUP}/${name}`;
}
