/** The ShieldAccessList custom resource as the controller reads it (crd.ts describes every field). */
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { KindNames } from '../kind-names.js';
import type { ZonedObject } from '../shieldrule-common/zone.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const SHIELD_ACCESS_LIST_NAMES: KindNames = {
  kind: 'ShieldAccessList',
  plural: 'shieldaccesslists',
  shortNames: ['sal'],
  scope: 'Namespaced',
};

/** `spec` of a ShieldAccessList. */
export interface ShieldAccessListSpec extends AccountSpec, AdoptionSpec {
  /** A ShieldPolicy in the same namespace (exactly one of shieldPolicyRef / shieldZoneId). */
  shieldPolicyRef?: { name: string };
  shieldZoneId?: number;
  /** Adopt the custom list with this id. */
  listId?: number;
  /** The list's name on the platform (default metadata.name). */
  name?: string;
  /** Set when the list is created (the platform cannot change it afterwards). */
  description?: string;
  /** What the entries are (`AccessListType` name). */
  type: string;
  /** The entries, one address, range, ASN, country code, organization or fingerprint each. */
  entries: string[];
  /** Whether the list applies (default true). */
  enabled?: boolean;
  /** What a matching request gets (`AccessListAction` name); unset: not managed. */
  action?: string;
}

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
