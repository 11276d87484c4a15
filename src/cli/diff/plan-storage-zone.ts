/**
 * What applying a StorageZone would change, computed by the operator's own external client
 * (StorageZoneExternal.observe: diffStorageZone), read-only: the object is compared as a
 * dry-run object, so the password Secret is neither read nor written. A spec that changes
 * what the platform fixes at create time (name, region, tier) is reported as an error with
 * the operator's own message.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { SecretStore } from '../../controllers/shared/owned-secret.js';
import { StorageZoneExternal } from '../../controllers/storagezone/external.js';
import type { StorageZone } from '../../controllers/storagezone/types.js';
import { Annotation } from '../../runtime/reasons.js';
import { diffContext, type ObjectPlan } from './plan-types.js';

/** Never used: observe skips the password Secret on dry-run objects. */
const NO_SECRET_STORE: SecretStore = new Proxy({} as SecretStore, {
  get: () => () => Promise.reject(new Error('cannot write Secrets from cdnctl diff')),
});

/** See the module comment. */
export async function planStorageZone(client: CdnClient, obj: StorageZone): Promise<ObjectPlan> {
  const id = obj.spec?.storageZoneId;
  const external = new StorageZoneExternal({
    client,
    accountId: 'cdnctl-diff',
    secrets: NO_SECRET_STORE,
  });
  const dryRun: StorageZone = {
    ...obj,
    metadata: {
      ...obj.metadata,
      annotations: { ...obj.metadata.annotations, [Annotation.DryRun]: 'true' },
    },
  };
  const seen = await external.observe(dryRun, diffContext(id));
  if (!seen.exists) return { action: 'create', diffs: [] };
  return {
    action: seen.diff.length > 0 ? 'update' : 'none',
    diffs: seen.diff,
    id: seen.externalId,
  };
}
