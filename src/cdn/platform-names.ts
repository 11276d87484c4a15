/**
 * How the platform compares the names of its resources, the one rule every lookup by name
 * follows (adoption with `spec.adoption.policy: ByName`, crash recovery of a create, the
 * immutable-name check):
 *
 * - pull zones and storage zones: a name is unique on the whole platform without regard to
 *   case (a pull zone name is also its `<name>.b-cdn.net` hostname, and DNS has no case), so
 *   `SHOP` and `shop` name the same zone and a create of one is refused while the other
 *   exists;
 * - container applications and container registries: names are not unique at all, so only the
 *   exact name matches.
 *
 * The official documents say nothing about case; this is the rule cdn-sim implements.
 */

/** Resources the operator looks up by name. */
export type NamedResource = 'pullZone' | 'storageZone' | 'containerApp' | 'containerRegistry';

const CASE_INSENSITIVE: ReadonlySet<NamedResource> = new Set(['pullZone', 'storageZone']);

/** True when the platform takes `live` and `wanted` as the same name of a `resource`. */
export function samePlatformName(
  resource: NamedResource,
  live: string | null | undefined,
  wanted: string,
): boolean {
  if (typeof live !== 'string') return false;
  return CASE_INSENSITIVE.has(resource)
    ? live.toLowerCase() === wanted.toLowerCase()
    : live === wanted;
}
