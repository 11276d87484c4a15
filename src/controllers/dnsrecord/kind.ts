/** The DnsRecord kind: one record of a DNS zone. */
import type { KindModule } from '../kind-module.js';
import { respelledAt } from '../kit/enum-spelling.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import { DNS_RECORD_NAMES, MONITOR_SPELLING } from './types.js';

export const DNS_RECORD: KindModule = {
  ...DNS_RECORD_NAMES,
  schema: async () => (await import('./crd.js')).dnsRecordSchema,
  controller: async () => (await import('./index.js')).createDnsRecordKind,
  planner: async () => (await import('./plan.js')).planDnsRecord,
  exporter: async () => (await import('./export.js')).exportDnsRecords,
  // Its zone comes from a DnsZone object or an id: not applied by the quick start.
  example: 'dns/dnsrecord.yaml',
  legacyMoves: [
    legacyAdoptionIdMove('recordId'),
    respelledAt('spec.monitorType', MONITOR_SPELLING),
    { from: 'spec.zoneRef', to: 'spec.dnsZoneRef' },
  ],
};
