/**
 * Pure spec <-> API mapping of a DNS record: the per-type checks of a spec, the wire value of a
 * member, the add body, and the status observed from a record.
 */
import type { DnsRecord as DnsRecordModel, DnsRecordAddRequest } from '../../cdn/dns-types.js';
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';
import { appliesTo, LINKED_TYPES, RECORD_FIELDS, type RecordField } from './fields.js';
import {
  ACCELERATION_STATUSES,
  MONITOR_STATUSES,
  RECORD_TYPES,
  type DnsRecordSpec,
  type DnsRecordStatus,
  type RecordTypeName,
} from './types.js';

/** The record name as the platform reads it back: `@` is the apex, `""`. */
export function normalizeName(name: string | undefined): string {
  return name === undefined || name === '@' ? '' : name;
}

/** The wire number of a record type name; throws for an unknown name. */
export function recordTypeNumber(type: string): number {
  const n = (RECORD_TYPES as readonly string[]).indexOf(type);
  if (n < 0) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      `cannot map spec.type: ${JSON.stringify(type)} is not one of ${RECORD_TYPES.join(', ')}`,
    );
  }
  return n;
}

/** The name of a wire value in `names`, or the value as text when unknown. */
export function nameOf(names: readonly string[], value: unknown): string {
  if (typeof value === 'number') return names[value] ?? String(value);
  return typeof value === 'string' ? value : (names[0] ?? '');
}

/** The wire value of a spec member. */
export function wireValue(field: RecordField, value: unknown): unknown {
  if (field.kind !== 'enum') return value;
  const n = (field.names ?? []).indexOf(String(value));
  return n < 0 ? value : n;
}

function invalid(message: string): TerminalError {
  return new TerminalError(SyncedReason.InvalidSpec, `cannot manage DNS record: ${message}`);
}

function checkApplies(spec: DnsRecordSpec, type: RecordTypeName): void {
  for (const field of RECORD_FIELDS) {
    if (spec[field.spec] !== undefined && !appliesTo(field, type)) {
      throw invalid(
        `spec.${field.spec} does not apply to a ${type} record (only ${(field.types ?? []).join(', ')})`,
      );
    }
  }
  const adopts = spec.recordId !== undefined || spec.adoption !== undefined;
  if (!LINKED_TYPES.includes(type) && !adopts && (spec.value === undefined || spec.value === ''))
    throw invalid(`spec.value is required for a ${type} record (unless it is adopted)`);
}

function checkScript(spec: DnsRecordSpec, type: RecordTypeName): void {
  const script = spec.scriptId !== undefined || (spec.environmentVariables?.length ?? 0) > 0;
  if (type === 'Script' && spec.scriptId === undefined)
    throw invalid('spec.scriptId is required for a Script record');
  if (type !== 'Script' && script)
    throw invalid('spec.scriptId and spec.environmentVariables apply to Script records only');
}

function checkPullZoneLink(spec: DnsRecordSpec, type: RecordTypeName): void {
  const pullZone = spec.pullZoneRef !== undefined || spec.pullZoneId !== undefined;
  if (type === 'PullZone' && !pullZone)
    throw invalid('a PullZone record needs spec.pullZoneRef or spec.pullZoneId');
  if (type !== 'PullZone' && pullZone)
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

/**
 * Checks the per-type rules the CRD also states (a spec that bypassed admission, or an older
 * CRD, gets the same clear error) and returns the record type.
 */
export function checkSpec(spec: DnsRecordSpec): RecordTypeName {
  const type = spec.type;
  recordTypeNumber(type);
  checkApplies(spec, type);
  checkScript(spec, type);
  checkPullZoneLink(spec, type);
  checkRouting(spec);
  return type;
}

/** The add body (`PUT /dnszone/{id}/records`); `pullZoneId` is the resolved link, if any. */
export function toAddRequest(spec: DnsRecordSpec, pullZoneId?: number): DnsRecordAddRequest {
  const type = checkSpec(spec);
  const body: DnsRecordAddRequest & Record<string, unknown> = {
    Type: recordTypeNumber(type) as DnsRecordAddRequest['Type'],
    Name: normalizeName(spec.name),
  };
  for (const field of RECORD_FIELDS) {
    const value = spec[field.spec];
    if (value !== undefined) body[field.api] = wireValue(field, value);
  }
  if (pullZoneId !== undefined) body.PullZoneId = pullZoneId;
  if (spec.scriptId !== undefined) body.ScriptId = spec.scriptId;
  if (spec.environmentVariables?.length)
    body.EnviromentalVariables = spec.environmentVariables.map((v) => ({
      Name: v.name,
      Value: v.value,
    }));
  return body;
}

function positive(n: unknown): number | undefined {
  return typeof n === 'number' && n > 0 ? n : undefined;
}

function accelerationStatus(record: DnsRecordModel): Partial<DnsRecordStatus> {
  const id = positive(record.AcceleratedPullZoneId);
  if (record.Accelerated !== true && id === undefined) return {};
  return {
    ...(id !== undefined ? { acceleratedPullZoneId: id } : {}),
    accelerationStatus: nameOf(ACCELERATION_STATUSES, record.AccelerationStatus ?? 0),
  };
}

/** The observed status fields of a record in zone `zoneId`. */
export function statusOf(zoneId: number, record: DnsRecordModel): DnsRecordStatus {
  const type = nameOf(RECORD_TYPES, record.Type);
  const status: DnsRecordStatus = {
    recordId: record.Id,
    dnsZoneId: zoneId,
    type,
    name: record.Name ?? '',
    value: record.Value ?? '',
    ...accelerationStatus(record),
  };
  if ((record.MonitorType ?? 0) !== 0)
    status.monitorStatus = nameOf(MONITOR_STATUSES, record.MonitorStatus ?? 0);
  const linked = type === 'PullZone' ? positive(Number(record.LinkName)) : undefined;
  if (linked !== undefined) status.linkedPullZoneId = linked;
  return status;
}
