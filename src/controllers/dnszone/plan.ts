/**
 * What applying a DnsZone would change, computed by the operator's own external client
 * (DnsZoneExternal.observe: the settings, DNSSEC and inline records), read-only like every
 * observe. A spec that changes the domain is reported as an error with the operator's own
 * message. Under `recordPolicy: Exact`, records the DnsRecord manifests compared in the same
 * run adopt or declare are not planned as deleted (plan-claims.ts), as the operator would not
 * delete them.
 */
import type { CdnClient } from '../../cdn/client.js';
import { diffContext, planOf, type ObjectPlan, type PlanContext } from '../shared/manifest-plan.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { DnsZoneExternal } from './external.js';
import { dnsZoneResource } from './index.js';
import { manifestRecordClaimants, manifestRecordClaims } from './plan-claims.js';
import type { DnsZone } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** See the module comment (`cdnctl diff` of a DnsZone manifest). */
export async function planDnsZone(
  client: CdnClient,
  obj: DnsZone,
  ctx: PlanContext,
): Promise<ObjectPlan> {
  const conn = { client, account: 'cdnctl-diff' };
  const external = new DnsZoneExternal(conn, dnsZoneResource(conn));
  const context = {
    ...diffContext(adoptionIdOf(obj.spec)),
    claimedByOther: manifestRecordClaims(obj, ctx),
    claimantsOf: manifestRecordClaimants(obj, ctx),
  };
  return planOf(await external.observe(obj, context));
}

/** The kind's `cdnctl diff` planner, under its part's name (kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = planDnsZone;
