/**
 * Pure comparison of a DnsZone spec with the live zone: the plan entries, the one settings
 * update (`POST /dnszone/{id}`, only the members that differ), the DNSSEC call if any, and
 * the differences no call can fix (the domain).
 *
 * - Settings are compared only when set in the spec (desiredSettings): an unset field is
 *   left as it is on the platform.
 * - `spec.dnssec` turns DNSSEC on or off, and only that: a zone already signed gets no
 *   DNSSEC call, even while status holds no DS record (an adopted zone, or one signed outside
 *   the operator). The platform answers the DS record only to the call that turns DNSSEC on,
 *   a write whose effect on a signed zone the documents do not state (a new key would break
 *   the chain of trust until the registrar is updated), so adopting a signed zone writes
 *   nothing and `status.dnssec` shows `enabled` without the DS record.
 */
import type { DnsZone as DnsZoneRecord, DnsZoneSettings } from '../../cdn/dns-types.js';
import type { FieldDiff } from '../../runtime/types.js';
import { diffFields, renderValue } from '../shared/plan.js';
import { desiredSettings, domainOf, liveSettings } from './mapping.js';
import type { DnsZone } from './types.js';

/** Result of {@link diffDnsZone}. */
export interface DnsZoneDiff {
  diffs: FieldDiff[];
  /** The settings update; empty when nothing differs. */
  update: DnsZoneSettings;
  /** Turn DNSSEC on (true) or off (false); undefined: no call. */
  dnssec?: boolean;
  /** Differences in what is fixed at creation (each a sentence naming the spec field). */
  immutable: string[];
}

function diffDnsSec(obj: DnsZone, record: DnsZoneRecord, out: DnsZoneDiff): void {
  const want = obj.spec?.dnssec;
  if (want === undefined) return;
  const live = record.DnsSecEnabled === true;
  if (want === live) return;
  out.dnssec = want;
  out.diffs.push({ field: 'DnsSecEnabled', live: renderValue(live), desired: renderValue(want) });
}

/** Compares the spec with the live zone (see the module comment). */
export function diffDnsZone(obj: DnsZone, record: DnsZoneRecord): DnsZoneDiff {
  const out: DnsZoneDiff = { diffs: [], update: {}, immutable: [] };
  const domain = domainOf(obj);
  if (domain !== undefined && record.Domain && record.Domain.toLowerCase() !== domain) {
    out.immutable.push(`spec.domain is ${domain} but the zone's domain is ${record.Domain}`);
  }
  const desired = desiredSettings(obj);
  out.diffs.push(...diffFields(desired, liveSettings(record)));
  for (const d of out.diffs) {
    (out.update as Record<string, unknown>)[d.field] = (desired as Record<string, unknown>)[
      d.field
    ];
  }
  diffDnsSec(obj, record, out);
  return out;
}
