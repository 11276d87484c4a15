/**
 * `cdnctl export` of ShieldAccessList: every custom access list of every shield zone of the
 * account, as an object that adopts it by id (`spec.listId`) and names its zone through the
 * exported ShieldPolicy (`shieldPolicyRef`) when policies are exported too, else by
 * `shieldZoneId`. Every field the list holds is written (entries, enabled, action), so applying
 * the export changes nothing.
 */
import type { AccessListDetails, CustomAccessList } from '../../cdn/security-types.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
  type KindExporter,
} from '../shared/manifest-export.js';
import { zoneIds } from '../shieldrule-common/export.js';
import { SHIELD_POLICY_NAMES } from '../shieldpolicy/types.js';
import { specFromLive } from './mapping.js';
import { SHIELD_ACCESS_LIST_NAMES } from './types.js';

/** One live list on `zone` as an object named `name`; `policy` names the exported ShieldPolicy. */
export function exportAccessList(
  zone: number,
  list: CustomAccessList,
  details: AccessListDetails,
  name: string,
  policy: string | undefined,
  opts: ExportOptions,
): ExportedObject {
  const target = policy ? { shieldPolicyRef: { name: policy } } : { shieldZoneId: zone };
  const spec = {
    listId: details.listId,
    ...target,
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
    ...specFromLive(list, details),
  };
  const names = SHIELD_ACCESS_LIST_NAMES;
  return {
    kind: names.kind,
    name,
    manifest: { ...typeMetaOf(names), metadata: metadataOf(name, opts.namespace), spec },
  };
}

/** See the module comment. */
export const exportShieldAccessLists: KindExporter = async (c: ExportContext): Promise<void> => {
  const names = new NameAllocator();
  const policies = c.wants(SHIELD_POLICY_NAMES.kind)
    ? c.names(SHIELD_POLICY_NAMES.kind)
    : new Map<string, string>();
  for (const zone of await zoneIds(c.client)) {
    const overview = await c.client.listAccessLists(zone);
    const lists = [...(overview.customLists ?? [])].sort((a, b) => a.listId - b.listId);
    for (const details of lists) {
      // Read by id, the way the operator reads it.
      const list = await c.client.getCustomAccessList(zone, details.listId);
      const name = names.allocate(String(list.name ?? ''), details.listId, 'list');
      const policy = policies.get(String(zone));
      c.result.objects.push(exportAccessList(zone, list, details, name, policy, c.opts));
    }
  }
};
