/**
 * Each kind that adopts by id, the v1alpha1 spec field that did it (`cdnctl migrate` moves it
 * into `spec.adoption`) and an id of the kind's type (ContainerApp's ids are strings). EdgeScript
 * is v1beta1-only: it has an adoption id but no v1alpha1 field to migrate (`legacy: false`).
 */
export const ADOPTION_IDS: ReadonlyArray<{
  kind: string;
  legacyField: string;
  id: number | string;
  legacy: boolean;
}> = [
  { kind: 'PullZoneConfig', legacyField: 'pullZoneId', id: 12345, legacy: true },
  { kind: 'StorageZone', legacyField: 'storageZoneId', id: 13, legacy: true },
  { kind: 'DnsZone', legacyField: 'dnsZoneId', id: 7, legacy: true },
  { kind: 'DnsRecord', legacyField: 'recordId', id: 8, legacy: true },
  { kind: 'ContainerRegistry', legacyField: 'registryId', id: 9, legacy: true },
  { kind: 'ContainerApp', legacyField: 'appId', id: 'app-1', legacy: true },
  { kind: 'ShieldAccessList', legacyField: 'listId', id: 10, legacy: true },
  { kind: 'ShieldWafRule', legacyField: 'ruleId', id: 11, legacy: true },
  { kind: 'ShieldRateLimit', legacyField: 'ruleId', id: 12, legacy: true },
  { kind: 'EdgeScript', legacyField: 'scriptId', id: 14, legacy: false },
];
