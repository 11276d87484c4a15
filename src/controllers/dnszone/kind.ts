/** The DnsZone kind: a DNS zone, its settings, DNSSEC and a few inline records. */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { respelledAt } from '../kit/enum-spelling.js';
import { PRIVATE_KEY_TYPE_SPELLING } from '../shared/private-key-type.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import { DNS_ZONE_NAMES } from './types.js';

export const DNS_ZONE: KindModule = {
  ...DNS_ZONE_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  // With the DNS examples (records, the pull zone whose certificate follows them).
  example: 'dns/dnszone.yaml',
  sample: { spec: (name) => ({ domain: `${name}.bench.example` }) },
  legacyMoves: [
    legacyAdoptionIdMove('dnsZoneId'),
    respelledAt('spec.certificateKeyType', PRIVATE_KEY_TYPE_SPELLING),
    { from: 'spec.dnssec', to: 'spec.dnssec.enabled' },
  ],
};
