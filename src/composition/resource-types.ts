/** The resource types the composition watches: the routes and the kinds it reads and makes. */
import { API_VERSION } from '../api-group.js';
import { CDN_POLICY_NAMES } from '../controllers/cdnpolicy/types.js';
import { DNS_RECORD_NAMES } from '../controllers/dnsrecord/types.js';
import { DNS_ZONE_NAMES } from '../controllers/dnszone/types.js';
import { apiGroupOf, type KindNames } from '../controllers/kind-names.js';
import { PULL_ZONE_CONFIG_NAMES } from '../controllers/pullzoneconfig/types.js';
import { SHIELD_POLICY_NAMES } from '../controllers/shieldpolicy/types.js';
import type { ResourceType } from '../runtime/resource.js';

function typeOf(k: KindNames): ResourceType {
  return { group: apiGroupOf(k), version: API_VERSION, plural: k.plural, kind: k.kind };
}

export const CDN_POLICIES = typeOf(CDN_POLICY_NAMES);
export const DNS_ZONES = typeOf(DNS_ZONE_NAMES);
export const DNS_RECORDS = typeOf(DNS_RECORD_NAMES);
/** The kinds the composition makes, by kind name. */
export const CHILD_TYPES: Readonly<Record<string, ResourceType>> = {
  PullZoneConfig: typeOf(PULL_ZONE_CONFIG_NAMES),
  DnsRecord: DNS_RECORDS,
  ShieldPolicy: typeOf(SHIELD_POLICY_NAMES),
};

export const GATEWAYS: ResourceType = {
  group: 'gateway.networking.k8s.io',
  version: 'v1',
  plural: 'gateways',
  kind: 'Gateway',
};
export const HTTP_ROUTES: ResourceType = { ...GATEWAYS, plural: 'httproutes', kind: 'HTTPRoute' };
export const INGRESSES: ResourceType = {
  group: 'networking.k8s.io',
  version: 'v1',
  plural: 'ingresses',
  kind: 'Ingress',
};
