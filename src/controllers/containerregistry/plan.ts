/**
 * What applying a ContainerRegistry would change, computed by the operator's own external
 * client (ContainerRegistryExternal.observe: diffRegistry), read-only like every observe. The
 * password is not compared: the platform never returns it and a manifest records no
 * fingerprint, so the plan says nothing about it (the operator does not send it either until
 * the Secret changes after adoption).
 */
import type { CdnClient } from '../../cdn/client.js';
import { diffContext, planOf, type ObjectPlan } from '../shared/manifest-plan.js';
import { ContainerRegistryExternal } from './external.js';
import type { ContainerRegistry } from './types.js';

/** See the module comment (`cdnctl diff` of a ContainerRegistry manifest). */
export async function planContainerRegistry(
  client: CdnClient,
  obj: ContainerRegistry,
): Promise<ObjectPlan> {
  const external = new ContainerRegistryExternal({
    client,
    accountId: 'cdnctl-diff',
    // Never read: without a recorded fingerprint no password difference is reported.
    readPassword: () => Promise.resolve(''),
  });
  return planOf(await external.observe(obj, diffContext(obj.spec?.registryId)));
}
