/**
 * Where each hostname of a route is published (pure): in the allowed zone whose domain is the
 * longest suffix of it, unless it is a wildcard, in no allowed zone, or already published by a
 * DnsRecord the policy did not make.
 */
import { CdnPolicyReason } from './reasons.js';

/** A DnsZone the policy may publish in: its object name and its domain. */
export interface UsableZone {
  name: string;
  domain: string;
}

/** A DnsRecord that exists: the hostname it publishes and the policy that made it, if any. */
export interface ExistingRecord {
  namespace: string;
  name: string;
  hostname: string;
  /** The `cdn.operator.io/cdn-policy` label (`namespace/name` is not needed: same namespace). */
  policy?: string;
}

/** A hostname to publish: its zone and its name relative to the zone (`""`: the apex). */
export interface PublishedHostname {
  hostname: string;
  zone: UsableZone;
  relative: string;
}

/** A hostname that is not published, and why. */
export interface RefusedHostname {
  hostname: string;
  reason: string;
  message: string;
}

function zoneOf(hostname: string, zones: readonly UsableZone[]): UsableZone | undefined {
  const fits = zones.filter((z) => {
    const d = z.domain.toLowerCase();
    return hostname === d || hostname.endsWith(`.${d}`);
  });
  return fits.sort((a, b) => b.domain.length - a.domain.length)[0];
}

function takenBy(
  hostname: string,
  policy: { namespace: string; name: string },
  records: readonly ExistingRecord[],
): ExistingRecord | undefined {
  return records.find(
    (r) =>
      r.hostname.toLowerCase() === hostname &&
      !(r.namespace === policy.namespace && r.policy === policy.name),
  );
}

/** Splits `hostnames` into those published (with their zone) and those refused. */
export function placeHostnames(
  hostnames: readonly string[],
  zones: readonly UsableZone[],
  policy: { namespace: string; name: string },
  records: readonly ExistingRecord[],
): { published: PublishedHostname[]; refused: RefusedHostname[] } {
  const published: PublishedHostname[] = [];
  const refused: RefusedHostname[] = [];
  for (const hostname of hostnames) {
    const zone = zoneOf(hostname, zones);
    const taken = takenBy(hostname, policy, records);
    if (hostname.startsWith('*')) {
      refused.push({
        hostname,
        reason: CdnPolicyReason.WildcardHostname,
        message: `hostname ${hostname} is a wildcard: a free certificate and a record need one name`,
      });
    } else if (!zone) {
      refused.push({
        hostname,
        reason: CdnPolicyReason.HostnameNotInZones,
        message: `hostname ${hostname} is in none of the policy's zones (${zones.map((z) => z.domain).join(', ') || 'none usable'}): not published`,
      });
    } else if (taken) {
      refused.push({
        hostname,
        reason: CdnPolicyReason.HostnameTaken,
        message: `hostname ${hostname} is already published by DnsRecord ${taken.namespace}/${taken.name}`,
      });
    } else {
      const relative = hostname === zone.domain ? '' : hostname.slice(0, -zone.domain.length - 1);
      published.push({ hostname, zone, relative });
    }
  }
  return { published, refused };
}
