/**
 * The reasons of a CdnPolicy's conditions and of its ancestors' (Gateway API reasons where one
 * exists: Accepted, Conflicted, TargetNotFound, Invalid), defined once.
 */
export const CdnPolicyReason = {
  Accepted: 'Accepted',
  /** Another, older policy already targets the route. */
  Conflicted: 'Conflicted',
  /** No route of that kind and name in the namespace. */
  TargetNotFound: 'TargetNotFound',
  /** The target is in another namespace. */
  TargetNotPermitted: 'TargetNotPermitted',
  /** A hostname of the route is in none of the policy's zones. */
  HostnameNotInZones: 'HostnameNotInZones',
  /** A hostname another object's DnsRecord already publishes. */
  HostnameTaken: 'HostnameTaken',
  /** A wildcard hostname: no free certificate, no single record. */
  WildcardHostname: 'WildcardHostname',
  /** A zone the policy names that the namespace may not use. */
  ZoneNotAllowed: 'ZoneNotAllowed',
  /** The route has no address yet. */
  AddressPending: 'AddressPending',
  /** Every generated object is Ready. */
  Ready: 'Ready',
  /** Some generated object is not Ready yet. */
  Progressing: 'Progressing',
  /** Applying a generated object failed (the apiserver's message). */
  ApplyFailed: 'ApplyFailed',
} as const;
