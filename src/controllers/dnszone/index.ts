/**
 * Wiring of the DnsZone kind (`/dnszone`) into the runtime: credentials -> shared CDN client
 * -> {@link DnsZoneExternal}. References: what the credentials depend on (a change re-enqueues
 * the object).
 */
import { accountIdFor } from '../../cdn/credentials.js';
import type { ManagedKind } from '../../runtime/types.js';
import { managedNames } from '../kind-names.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialReferences, resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { withMarkerKey } from '../shared/marker-key.js';
import { DnsZoneExternal } from './external.js';
import { classifyDnsZoneError } from './record-errors.js';
import { DNS_ZONE_NAMES, type DnsZone } from './types.js';

const SPEC_PATHS: Record<string, string> = {
  Domain: 'spec.domain',
  SoaEmail: 'spec.soaEmail',
  CustomNameserversEnabled: 'spec.customNameservers.enabled',
  Nameserver1: 'spec.customNameservers.ns1',
  Nameserver2: 'spec.customNameservers.ns2',
  LoggingEnabled: 'spec.logging.enabled',
  LoggingIPAnonymizationEnabled: 'spec.logging.ipAnonymization',
  LogAnonymizationType: 'spec.logging.anonymizationType',
  CertificateKeyType: 'spec.certificateKeyType',
};

/** Maps an API field named in a platform error to the spec path a user edits. */
export function specPathForApiField(apiField: string): string {
  const path = SPEC_PATHS[apiField];
  if (path) return `${path} (${apiField})`;
  // Record members (`Value`, `Ttl`, ...) belong to an entry of spec.records.
  return /^(Type|Name|Value|Ttl|Priority|Weight|Port|Flags|Tag)$/.test(apiField)
    ? `spec.records (${apiField})`
    : apiField;
}

/** Builds the DnsZone ManagedKind. */
export function createDnsZoneKind(deps: ControllerDeps): ManagedKind<DnsZone> {
  return {
    ...managedNames(DNS_ZONE_NAMES),
    idStatusField: 'dnsZoneId',
    specExternalId: (obj) =>
      obj.spec?.dnsZoneId !== undefined ? String(obj.spec.dnsZoneId) : undefined,
    async connect(obj, ctx) {
      const apiKey = await resolveApiKey(obj, ctx, deps);
      const external = new DnsZoneExternal({
        client: getCdnClient(deps, apiKey),
        accountId: accountIdFor(apiKey),
      });
      return withMarkerKey(external, apiKey);
    },
    references: (obj) => credentialReferences(obj, deps),
    classifyError: (err) => classifyDnsZoneError(err, specPathForApiField),
  };
}

export type { DnsZone } from './types.js';
