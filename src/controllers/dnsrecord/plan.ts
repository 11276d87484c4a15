/**
 * What applying a DnsRecord would change, computed by the operator's own reference resolution
 * (references.ts) and external client (DnsRecordExternal.observe: find by `recordId`, or by
 * `ByName` adoption, then diffRecord), read-only like every observe.
 *
 * `cdnctl diff` does not read Kubernetes: `zoneRef` resolves to the `spec.dnsZoneId` of that
 * DnsZone among the compared manifests (what the operator reads from its `status.dnsZoneId`),
 * `pullZoneRef` to the `spec.pullZoneId` of that PullZoneConfig. A record whose zone or linked
 * pull zone has no id there yet is not compared. Without `recordId` or `ByName` the operator
 * creates the record, so the plan is a create; an adopted id or name that does not exist, or a
 * changed type, is an error with the operator's own message.
 */
import type { CdnClient } from '../../cdn/client.js';
import { WaitingError } from '../../runtime/errors.js';
import type { ConnectContext, ManagedObject } from '../../runtime/types.js';
import {
  diffContext,
  planOf,
  specIdsByName,
  type ObjectPlan,
  type PlanContext,
} from '../shared/manifest-plan.js';
import { DnsRecordExternal } from './external.js';
import { resolveReferences, type ResolvedRefs } from './references.js';
import type { DnsRecord } from './types.js';

/** Account fingerprint of a comparison (no claim index: nothing is compared against it). */
const PLAN_ACCOUNT = 'cdnctl-diff';

/** The id field a referenced kind's manifest carries, read as the status the operator reads. */
const ID_FIELDS: Readonly<Record<string, string>> = {
  DnsZone: 'dnsZoneId',
  PullZoneConfig: 'pullZoneId',
};

/**
 * The referenced objects as the resolver reads them from the informer cache: a manifest among
 * the compared ones, its spec id standing in for its status id (no ownership: the account
 * check needs a cluster).
 */
function manifestObjects(ctx: PlanContext): ConnectContext['getObject'] {
  return (ref) => {
    const field = ID_FIELDS[ref.kind];
    const found = ctx.objectsOf(ref.kind).find((o) => o.metadata.name === ref.name);
    if (field === undefined || found === undefined) return undefined;
    const id = specIdsByName([found], field).get(ref.name);
    const object: ManagedObject = { ...found, status: id === undefined ? {} : { [field]: id } };
    return object;
  };
}

/** See the module comment (`cdnctl diff` of a DnsRecord manifest). */
export async function planDnsRecord(
  client: CdnClient,
  obj: DnsRecord,
  ctx: PlanContext,
): Promise<ObjectPlan> {
  let refs: ResolvedRefs;
  try {
    refs = resolveReferences(obj, manifestObjects(ctx), PLAN_ACCOUNT);
  } catch (err) {
    if (!(err instanceof WaitingError)) throw err;
    const note = `${err.message} (cdnctl diff reads the spec ids of the DnsZone and PullZoneConfig manifests compared with it): compare again once it exists`;
    return { action: 'skipped', diffs: [], note };
  }
  const external = new DnsRecordExternal({ client, accountId: PLAN_ACCOUNT, refs }, obj);
  return planOf(await external.observe(obj, diffContext(obj.spec?.recordId)));
}
