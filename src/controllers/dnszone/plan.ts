/**
 * What applying a DnsZone would change, computed by the operator's own external client
 * (DnsZoneExternal.observe: the settings, DNSSEC and inline records), read-only like every
 * observe. A spec that changes the domain is reported as an error with the operator's own
 * message. Records DnsRecord objects manage are not known to cdnctl (no claim index): under
 * `recordPolicy: Exact` the plan lists them as deleted, which the operator would not do.
 */
import type { CdnClient } from '../../cdn/client.js';
import { diffContext, planOf, type ObjectPlan } from '../shared/manifest-plan.js';
import { DnsZoneExternal } from './external.js';
import type { DnsZone } from './types.js';

/** See the module comment (`cdnctl diff` of a DnsZone manifest). */
export async function planDnsZone(client: CdnClient, obj: DnsZone): Promise<ObjectPlan> {
  const external = new DnsZoneExternal({ client, accountId: 'cdnctl-diff' });
  return planOf(await external.observe(obj, diffContext(obj.spec?.dnsZoneId)));
}
