/** The ShieldAccessList custom resource as the controller reads it (its fields: fields.ts). */
import type { SpecOf } from '../kit/fields.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { ZonedObject } from '../shieldrule-common/zone.js';
import type { ACCESS_LIST_FIELDS } from './fields.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const SHIELD_ACCESS_LIST_NAMES: NamedResourceKind = {
  kind: 'ShieldAccessList',
  plural: 'shieldaccesslists',
  shortNames: ['sal'],
  scope: 'Namespaced',
  family: 'shield',
  platformNames: 'shared',
};

/** `spec` of a ShieldAccessList: the field table's members and the shared parts. */
export type ShieldAccessListSpec = SpecOf<typeof ACCESS_LIST_FIELDS> &
  AccountSpec &
  AdoptionSpec & {
    /** A ShieldPolicy in the same namespace (exactly one of shieldPolicyRef / shieldZoneId). */
    shieldPolicyRef?: { name: string };
    shieldZoneId?: number;
  };

/** `status` of a ShieldAccessList. */
export interface ShieldAccessListStatus extends KindStatus {
  listId?: number | string;
  configurationId?: number;
  shieldZoneId?: number;
  name?: string;
  entryCount?: number;
}

/** A ShieldAccessList object. */
export interface ShieldAccessList extends ZonedObject {
  spec?: ShieldAccessListSpec & Record<string, unknown>;
  status?: ShieldAccessListStatus;
}
