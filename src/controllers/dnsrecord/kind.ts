/** The DnsRecord kind: one record of a DNS zone. */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { respelledAt } from '../kit/enum-spelling.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import { DNS_RECORD_NAMES, MONITOR_SPELLING } from './types.js';

export const DNS_RECORD: KindModule = {
  ...DNS_RECORD_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  // Its zone comes from a DnsZone object or an id: not applied by the quick start.
  example: 'dns/dnsrecord.yaml',
  legacyMoves: [
    legacyAdoptionIdMove('recordId'),
    respelledAt('spec.monitorType', MONITOR_SPELLING),
    { from: 'spec.zoneRef', to: 'spec.dnsZoneRef' },
  ],
};
