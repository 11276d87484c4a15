/**
 * The `status.ownership` record: what the runtime keeps about an object's hold on its
 * platform resource (account, adopted, effective deletion policy, create-pending record, refused create).
 * Written only through the status subresource.
 */

import type { ManagedObject } from './types.js';

/** Status field holding {@link OwnershipStatus}. */
export const OWNERSHIP_FIELD = 'ownership';

/** What the runtime records about the object's hold on its platform resource. */
export interface OwnershipStatus {
  /** Non-secret fingerprint of the account the resource lives in. */
  account?: string;
  /** True when the resource existed before this object (adopted by id or by name). */
  adopted?: boolean;
  /** The deletion policy in force: spec.deletionPolicy, else Orphan when adopted, else Delete. */
  deletionPolicy?: string;
  /** RFC 3339 time a create was started whose outcome (an id) is not recorded yet. */
  createPendingTime?: string;
  /**
   * RFC 3339 time (ms precision) of the signed create-pending marker whose create the platform
   * refused: a marker not newer than this is void (see create-guard.ts).
   */
  createRefusedTime?: string;
}

/** The object's `status.ownership` (empty when absent or malformed). */
export function ownershipOf(obj: ManagedObject): OwnershipStatus {
  const raw = obj.status?.[OWNERSHIP_FIELD];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const o = raw as Record<string, unknown>;
  return {
    ...(typeof o.account === 'string' ? { account: o.account } : {}),
    ...(typeof o.adopted === 'boolean' ? { adopted: o.adopted } : {}),
    ...(typeof o.deletionPolicy === 'string' ? { deletionPolicy: o.deletionPolicy } : {}),
    ...(typeof o.createPendingTime === 'string' ? { createPendingTime: o.createPendingTime } : {}),
    ...(typeof o.createRefusedTime === 'string' ? { createRefusedTime: o.createRefusedTime } : {}),
  };
}
