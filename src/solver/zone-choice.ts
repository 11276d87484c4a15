/**
 * Which DNS zone a DNS-01 challenge may be written in: found from our objects, never guessed
 * from the name. A challenge of namespace N for name X is solved only in a zone that a DnsZone
 * object of N stands for (managed, or observe-only and admitted: docs/observe-only.md) whose
 * last pass succeeded and whose domain contains X; the most specific such zone wins. Another
 * namespace's zones are never candidates, whatever the name.
 */
import { lastPassSucceeded } from '../runtime/conditions.js';
import type { ManagedObject } from '../runtime/types.js';
import { statusIdOf } from '../controllers/kit/ref-or-id.js';
import { ChallengeRefused } from './challenge.js';

/** Reasons of a refused challenge (stable, in the Challenge's status). */
export const SolverReason = {
  NoZone: 'NoDnsZoneForName',
  ZoneNotReady: 'DnsZoneNotReady',
  Failed: 'PlatformError',
} as const;

/** The zone a challenge is written in, and the record's name relative to it. */
export interface ZoneChoice {
  zone: ManagedObject;
  zoneId: number;
  domain: string;
  /** The record name relative to the zone (`_acme-challenge.origin`). */
  relativeName: string;
}

/** Lowercase, without the trailing dot. */
export function normalizeName(name: string): string {
  return name.trim().replace(/\.$/, '').toLowerCase();
}

function domainOf(zone: ManagedObject): string | undefined {
  const d = zone.status?.domain ?? zone.spec?.domain;
  return typeof d === 'string' && d !== '' ? normalizeName(d) : undefined;
}

function contains(domain: string, fqdn: string): boolean {
  return fqdn === domain || fqdn.endsWith(`.${domain}`);
}

/**
 * The zone for `fqdn` among the DnsZone objects `zones` (any namespace: only `namespace`'s
 * count); throws ChallengeRefused naming the namespace and the name otherwise.
 */
export function chooseZone(
  namespace: string,
  fqdn: string,
  zones: readonly ManagedObject[],
): ZoneChoice {
  const name = normalizeName(fqdn);
  const candidates = zones
    .filter((z) => z.metadata.namespace === namespace)
    .flatMap((z) => {
      const domain = domainOf(z);
      return domain && contains(domain, name) ? [{ zone: z, domain }] : [];
    })
    .sort((a, b) => b.domain.length - a.domain.length);
  const best = candidates[0];
  if (!best) {
    throw new ChallengeRefused(
      SolverReason.NoZone,
      `cannot solve the DNS-01 challenge for ${name}: no DnsZone in namespace ${namespace} contains it (the solver writes only in zones a DnsZone of the Issuer's namespace stands for)`,
    );
  }
  const zoneId = lastPassSucceeded(best.zone) ? statusIdOf(best.zone, 'dnsZoneId') : undefined;
  if (zoneId === undefined) {
    throw new ChallengeRefused(
      SolverReason.ZoneNotReady,
      `cannot solve the DNS-01 challenge for ${name}: DnsZone ${namespace}/${best.zone.metadata.name} has no zone id yet or its last pass failed (see its Synced condition)`,
    );
  }
  const relativeName = name === best.domain ? '' : name.slice(0, -(best.domain.length + 1));
  return { zone: best.zone, zoneId, domain: best.domain, relativeName };
}
