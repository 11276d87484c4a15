/**
 * The per-type rules of a DnsRecord spec, which the CRD also states (crd.ts): a spec that
 * bypassed admission, or was admitted by an older CRD, gets the same clear error before
 * anything is read or sent.
 */
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { SyncedReason } from '../../runtime/reasons.js';
import { inapplicable } from '../kit/fields.js';
import { LINKED_TYPES, RECORD_TYPES } from '../shared/dns-record-fields.js';
import { RECORD_FIELDS } from './fields.js';
import type { DnsRecord, DnsRecordSpec } from './types.js';

function invalid(message: string): TerminalError {
  return new TerminalError(SyncedReason.InvalidSpec, `cannot manage DNS record: ${message}`);
}

function checkApplies(obj: DnsRecord, spec: DnsRecordSpec): void {
  for (const f of inapplicable(RECORD_FIELDS, obj)) {
    const types = (f.appliesTo?.values ?? []).join(', ');
    throw invalid(`spec.${f.spec} does not apply to a ${spec.type} record (only ${types})`);
  }
  const adopts = spec.adoption !== undefined;
  if (!LINKED_TYPES.includes(spec.type) && !adopts && !spec.value)
    throw invalid(`spec.value is required for a ${spec.type} record (unless it is adopted)`);
}

function checkLinks(spec: DnsRecordSpec): void {
  if (spec.type === 'Script' && spec.scriptId === undefined)
    throw invalid('spec.scriptId is required for a Script record');
  const pullZone = spec.pullZoneRef !== undefined || spec.pullZoneId !== undefined;
  if (spec.type === 'PullZone' && !pullZone)
    throw invalid('a PullZone record needs spec.pullZoneRef or spec.pullZoneId');
  if (spec.type !== 'PullZone' && pullZone)
    throw invalid('spec.pullZoneRef and spec.pullZoneId apply to PullZone records only');
}

function checkRouting(spec: DnsRecordSpec): void {
  const routing = spec.smartRoutingType ?? 'None';
  if (routing === 'Latency' && !spec.latencyZone)
    throw invalid('spec.smartRoutingType Latency needs spec.latencyZone');
  if (routing !== 'Latency' && spec.latencyZone !== undefined)
    throw invalid('spec.latencyZone applies only with spec.smartRoutingType Latency');
  const coordinates = [spec.geolocationLatitude, spec.geolocationLongitude];
  if (routing === 'Geolocation' && coordinates.some((c) => c === undefined))
    throw invalid(
      'spec.smartRoutingType Geolocation needs spec.geolocationLatitude and spec.geolocationLongitude',
    );
  if (routing !== 'Geolocation' && coordinates.some((c) => c !== undefined))
    throw invalid(
      'spec.geolocationLatitude/Longitude apply only with spec.smartRoutingType Geolocation',
    );
}

/** Refuses a spec that breaks a per-type rule (see the module comment); never a deletion. */
export function checkSpec(obj: DnsRecord): void {
  if (isDeleting(obj)) return;
  const spec = obj.spec as DnsRecordSpec;
  if (!(RECORD_TYPES as readonly string[]).includes(spec.type))
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      `cannot map spec.type: ${JSON.stringify(spec.type)} is not one of ${RECORD_TYPES.join(', ')}`,
    );
  checkApplies(obj, spec);
  checkLinks(spec);
  checkRouting(spec);
}
