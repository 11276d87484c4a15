/**
 * `cdnctl export` of ShieldAccessList: every custom list of every shield zone of the account, as
 * an object adopting it by id (`spec.adoption.id`) on the exported ShieldPolicy (`shieldPolicyRef`) when
 * policies are exported too, else on `shieldZoneId`. Every field of the table the list holds is
 * written (fields.ts), so applying the export changes nothing.
 */
import { specOfRecord } from '../kit/fields.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
} from '../shared/manifest-export.js';
import { adoptionById } from '../shared/ownership-schema.js';
import { zoneIds } from '../shieldrule-common/export.js';
import { SHIELD_POLICY_NAMES } from '../shieldpolicy/types.js';
import { ACCESS_LIST_FIELDS } from './fields.js';
import { readLists, type AccessListRecord } from './resource.js';
import { SHIELD_ACCESS_LIST_NAMES } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** One live list on `zone` as an object named `name`; `policy` names the exported ShieldPolicy. */
function exportAccessList(
  zone: number,
  list: AccessListRecord,
  name: string,
  policy: string | undefined,
  opts: ExportOptions,
): ExportedObject {
  const fields = specOfRecord(ACCESS_LIST_FIELDS, list);
  const spec = {
    ...adoptionById(list.id),
    ...(policy ? { shieldPolicyRef: { name: policy } } : { shieldZoneId: zone }),
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
    ...fields,
    entries: fields.entries ?? [], // required; a record's spec leaves out an empty list
  };
  const meta = {
    ...typeMetaOf(SHIELD_ACCESS_LIST_NAMES),
    metadata: metadataOf(name, opts.namespace),
  };
  return { kind: SHIELD_ACCESS_LIST_NAMES.kind, name, manifest: { ...meta, spec } };
}

/** See the module comment. */
export const exporter: KindPart<'exporter'> = async (c: ExportContext): Promise<void> => {
  const names = new NameAllocator();
  const wanted = c.wants(SHIELD_POLICY_NAMES.kind);
  const policies = wanted ? c.names(SHIELD_POLICY_NAMES.kind) : new Map<string, string>();
  for (const zone of await zoneIds(c.client)) {
    // Read the way the operator reads them.
    const lists = (await readLists(c.client, zone, () => true)).sort((a, b) => a.id - b.id);
    for (const list of lists) {
      const name = names.allocate(String(list.name ?? ''), list.id, 'list');
      c.result.objects.push(exportAccessList(zone, list, name, policies.get(String(zone)), c.opts));
    }
  }
};
