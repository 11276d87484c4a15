/**
 * Wiring of the DnsRecord kind (`/dnszone/{id}/records`) into the runtime: credentials ->
 * shared CDN client -> references resolved from the informer cache (references.ts) ->
 * {@link DnsRecordExternal}. Claims (claims.ts): the record id (`DnsRecord`), the record's
 * content as the status records it (`DnsRecordContent`) and, from the spec alone, the record
 * it declares (shared `DnsRecordDeclared`), so other DnsRecords and the DnsZone kind's `Exact`
 * policy see the record, also while it is being created.
 */
import { accountIdFor } from '../../cdn/credentials.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ManagedKind } from '../../runtime/types.js';
import { managedNames } from '../kind-names.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialReferences, resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { withMarkerKey } from '../shared/marker-key.js';
import { dnsRecordClaimsOf } from './claims.js';
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
export { dnsRecordClaimsOf } from './claims.js';
