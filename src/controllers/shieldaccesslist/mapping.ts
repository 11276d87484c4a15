/**
 * Pure mapping between a ShieldAccessList spec and the platform's custom list and its
 * configuration: the desired state (wire values), and the reverse for `cdnctl export`.
 */
import { accessListEntries } from '../../cdn/shield-access-lists.js';
import type { AccessListDetails, CustomAccessList } from '../../cdn/security-types.js';
import { fromWire, toWire } from '../shieldrule-common/enums.js';
import { ACCESS_LIST_ACTION, ACCESS_LIST_TYPE, NO_ACTION } from './enums.js';
import { checkEntries, normalizeEntries } from './entries.js';
import type { ShieldAccessListSpec } from './types.js';

/** What the object wants of its list. */
export interface DesiredAccessList {
  /** Undefined: not managed (a list adopted by id without spec.name). */
  name?: string;
  /** Sent at create only (the platform has no way to change it). */
  description?: string;
  /** `AccessListType` number. */
  type: number;
  /** Normalized entries in spec order (entries.ts). */
  entries: string[];
  enabled: boolean;
  /** `AccessListAction` number; undefined: not managed. */
  action?: number;
}

/**
 * The desired state of a spec. The name defaults to metadata.name, except for a list adopted
 * by id (`spec.listId`) without `spec.name`, whose name stays as it is. Throws InvalidSpec for an
 * entry that does not fit the type (entries.ts), before anything is sent.
 */
export function desiredAccessList(
  spec: ShieldAccessListSpec,
  metadataName: string,
): DesiredAccessList {
  const name = spec.name ?? (spec.listId === undefined ? metadataName : undefined);
  const entries = spec.entries ?? [];
  checkEntries(spec.type, entries);
  return {
    ...(name !== undefined ? { name } : {}),
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    type: toWire(ACCESS_LIST_TYPE, spec.type),
    entries: normalizeEntries(entries),
    enabled: spec.enabled ?? true,
    ...(spec.action !== undefined ? { action: toWire(ACCESS_LIST_ACTION, spec.action) } : {}),
  };
}

/** The spec fields of a live list and its configuration (for `cdnctl export`). */
export function specFromLive(
  list: CustomAccessList,
  details: AccessListDetails,
): Partial<ShieldAccessListSpec> {
  const action =
    details.action === NO_ACTION ? undefined : fromWire(ACCESS_LIST_ACTION, details.action);
  const description = list.description ?? '';
  return {
    ...(typeof list.name === 'string' ? { name: list.name } : {}),
    ...(description !== '' ? { description } : {}),
    type: fromWire(ACCESS_LIST_TYPE, list.type ?? details.type) ?? String(list.type),
    entries: normalizeEntries(accessListEntries(list.content)),
    enabled: details.isEnabled,
    ...(action !== undefined ? { action } : {}),
  };
}
