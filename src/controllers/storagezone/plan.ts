/**
 * What applying a StorageZone would change, computed by the operator's own external client
 * (StorageZoneExternal.observe: diffStorageZone), read-only like every observe (the password
 * Secret is the runtime's to publish, never the kind's). A spec that changes
 * what the platform fixes at create time (name, region, tier) is reported as an error with
 * the operator's own message.
 */
import type { CdnClient } from '../../cdn/client.js';
import { diffContext, planOf, type ObjectPlan } from '../shared/manifest-plan.js';
import { StorageZoneExternal } from './external.js';
import type { StorageZone } from './types.js';

/** See the module comment (`cdnctl diff` of a StorageZone manifest). */
export async function planStorageZone(client: CdnClient, obj: StorageZone): Promise<ObjectPlan> {
  const id = obj.spec?.storageZoneId;
  const external = new StorageZoneExternal({
    client,
    accountId: 'cdnctl-diff',
  });
  return planOf(await external.observe(obj, diffContext(id)));
}
