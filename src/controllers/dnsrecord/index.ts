/**
 * Wiring of the DnsRecord kind (`/dnszone/{id}/records`) into the runtime: credentials ->
 * shared CDN client -> references resolved from the informer cache (references.ts) ->
 * {@link DnsRecordExternal}. Claims: the record id (`DnsRecord`) and, from the status, the
 * record's content (`DnsRecordContent`), so the DnsZone kind's `Exact` policy and other
 * DnsRecords see both.
 */
import { accountIdFor } from '../../cdn/credentials.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ClaimRef, ManagedKind } from '../../runtime/types.js';
import {
  DNS_RECORD_CLAIM,
  DNS_RECORD_CONTENT_CLAIM,
  dnsRecordContentKey,
} from '../dnszone/record-claims.js';
import { managedNames } from '../kind-names.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialReferences, resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { withMarkerKey } from '../shared/marker-key.js';
import { DnsRecordExternal } from './external.js';
import { idReferencesOf, objectReferences, resolveReferences } from './references.js';
import { DNS_RECORD_NAMES, type DnsRecord } from './types.js';

const SPEC_PATHS: Record<string, string> = {
  Type: 'spec.type',
  Name: 'spec.name',
  Value: 'spec.value',
  Ttl: 'spec.ttl',
  Weight: 'spec.weight',
  Priority: 'spec.priority',
  Port: 'spec.port',
  Flags: 'spec.flags',
  Tag: 'spec.tag',
  PullZoneId: 'spec.pullZoneRef / spec.pullZoneId',
  ScriptId: 'spec.scriptId',
  Accelerated: 'spec.accelerated',
  MonitorType: 'spec.monitorType',
  GeolocationLatitude: 'spec.geolocationLatitude',
  GeolocationLongitude: 'spec.geolocationLongitude',
  LatencyZone: 'spec.latencyZone',
  SmartRoutingType: 'spec.smartRoutingType',
  Disabled: 'spec.disabled',
  EnviromentalVariables: 'spec.environmentVariables',
  Comment: 'spec.comment',
  AutoSslIssuance: 'spec.autoSslIssuance',
};

/** Maps an API field named in a platform error to the spec path a user edits. */
export function specPathForApiField(apiField: string): string {
  const path = SPEC_PATHS[apiField];
  return path ? `${path} (${apiField})` : apiField;
}

function positiveId(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}

/**
 * The claims of a DnsRecord from the object alone: its record id (spec or status) and the
 * content the status recorded (zone, type, name, value as read from the platform).
 */
export function dnsRecordClaimsOf(obj: DnsRecord): ClaimRef[] {
  const status = obj.status ?? {};
  const recordedId = positiveId(status.recordId);
  const id = positiveId(obj.spec?.recordId) ?? recordedId;
  const out: ClaimRef[] = [];
  if (id !== undefined)
    out.push({ type: DNS_RECORD_CLAIM, id: String(id), recorded: recordedId === id });
  const zoneId = positiveId(status.dnsZoneId);
  if (zoneId !== undefined && status.type !== undefined && recordedId !== undefined) {
    const key = dnsRecordContentKey(zoneId, status.type, status.name ?? '', status.value ?? '');
    out.push({ type: DNS_RECORD_CONTENT_CLAIM, id: key, recorded: true });
  }
  return out;
}

/** Builds the DnsRecord ManagedKind. */
export function createDnsRecordKind(deps: ControllerDeps): ManagedKind<DnsRecord> {
  return {
    ...managedNames(DNS_RECORD_NAMES),
    idStatusField: 'recordId',
    specExternalId: (obj) =>
      obj.spec?.recordId !== undefined ? String(obj.spec.recordId) : undefined,
    async connect(obj, ctx) {
      const apiKey = await resolveApiKey(obj, ctx, deps);
      const accountId = accountIdFor(apiKey);
      const refs = resolveReferences(obj, (ref) => ctx.getObject(ref), accountId);
      const external = new DnsRecordExternal(
        { client: getCdnClient(deps, apiKey), accountId, refs },
        obj,
      );
      return withMarkerKey(external, apiKey);
    },
    references: (obj) => [...credentialReferences(obj, deps), ...objectReferences(obj)],
    claimsOf: dnsRecordClaimsOf,
    idReferences: idReferencesOf,
    classifyError: (err: unknown): ClassifiedError =>
      classifyCdnError(err, { specPathForField: specPathForApiField }),
  };
}

export type { DnsRecord } from './types.js';
