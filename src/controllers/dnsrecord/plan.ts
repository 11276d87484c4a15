/**
 * What applying a DnsRecord would change, computed by the operator's own reference resolution
 * (references.ts) and the kit's external client with the kind's resource (index.ts: find by
 * the adopted id, or by `ByName` adoption, then compare), read-only like every observe.
 *
 * `cdnctl diff` does not read Kubernetes: `dnsZoneRef` resolves to the `spec.adoption.id` of
 * that DnsZone among the compared manifests (what the operator reads from its
 * `status.dnsZoneId`), `pullZoneRef` to the `spec.adoption.id` of that PullZoneConfig. A record
 * whose zone or linked pull zone has no id there yet is not compared. Without adoption the operator
 * creates the record, so the plan is a create; an adopted id or name that does not exist, or a
 * changed type, is an error with the operator's own message.
 */
import type { CdnClient } from '../../cdn/client.js';
import { WaitingError } from '../../runtime/errors.js';
import { CrudExternal } from '../kit/crud-external.js';
import { manifestObjects } from '../kit/ref-or-id.js';
import { diffContext, planOf, type ObjectPlan, type PlanContext } from '../shared/manifest-plan.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { dnsRecordResource } from './index.js';
import { PULL_ZONE, resolveReferences, ZONE, type ResolvedRefs } from './references.js';
import type { DnsRecord } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Account fingerprint of a comparison (no claim index: nothing is compared against it). */
const PLAN_ACCOUNT = 'cdnctl-diff';

/** See the module comment (`cdnctl diff` of a DnsRecord manifest). */
export async function planDnsRecord(
  client: CdnClient,
  obj: DnsRecord,
  ctx: PlanContext,
): Promise<ObjectPlan> {
  let refs: ResolvedRefs;
  try {
    refs = resolveReferences(obj, manifestObjects(ctx, [ZONE, PULL_ZONE]), PLAN_ACCOUNT);
  } catch (err) {
    if (!(err instanceof WaitingError)) throw err;
    const note = `${err.message} (cdnctl diff reads the spec ids of the DnsZone and PullZoneConfig manifests compared with it): compare again once it exists`;
    return { action: 'skipped', diffs: [], note };
  }
  const resource = dnsRecordResource({ client, account: PLAN_ACCOUNT }, obj, refs);
  return planOf(await new CrudExternal(resource).observe(obj, diffContext(adoptionIdOf(obj.spec))));
}

/** The kind's `cdnctl diff` planner, under its part's name (kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = planDnsRecord;
