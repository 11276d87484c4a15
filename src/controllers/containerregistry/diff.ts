/**
 * Pure comparison of a ContainerRegistry spec with the live registry: the plan entries and
 * whether the one replace (`PUT /mc/registries/{id}`) that fixes them must carry the
 * credentials.
 *
 * - the display name is compared exactly (registry names are not unique on the platform and
 *   the platform keeps the case it was given);
 * - the user name is compared with the live one; a difference sends the credentials (the
 *   document's `Credentials` takes the user name and password together);
 * - the password is never readable: it differs when the fingerprint of the Secret's value is
 *   not the one recorded in status (mapping.ts). Without a recorded fingerprint (an adopted
 *   registry) the Secret's value is taken as the live password and nothing is sent;
 * - the type is not part of the read model, so it is not compared; every replace sends it.
 */
import type { ContainerRegistry as RegistryRecord } from '../../cdn/security-types.js';
import type { FieldDiff } from '../../runtime/types.js';
import { REDACTED, renderValue } from '../shared/plan.js';
import { displayNameOf } from './mapping.js';
import type { ContainerRegistry } from './types.js';

/** Result of {@link diffRegistry}. */
export interface RegistryDiff {
  /** Plan entries (platform field names); never a password. */
  diffs: FieldDiff[];
  /** The replace must carry the credentials (a new password or user name). */
  sendCredentials: boolean;
}

/** Password fingerprints: recorded in status (absent after adoption) and of the Secret now. */
export interface Fingerprints {
  applied?: string;
  current: string;
}

/** Compares the spec with the live registry (see the module comment). */
export function diffRegistry(
  obj: ContainerRegistry,
  record: RegistryRecord,
  fingerprints: Fingerprints,
): RegistryDiff {
  const out: RegistryDiff = { diffs: [], sendCredentials: false };
  const name = displayNameOf(obj);
  if (record.displayName !== name) {
    out.diffs.push({
      field: 'displayName',
      live: renderValue(record.displayName),
      desired: renderValue(name),
    });
  }
  const username = obj.spec?.username;
  if (username !== undefined && record.userName !== username) {
    out.diffs.push({
      field: 'userName',
      live: renderValue(record.userName),
      desired: renderValue(username),
    });
    out.sendCredentials = true;
  }
  if (fingerprints.applied !== undefined && fingerprints.applied !== fingerprints.current) {
    out.diffs.push({ field: 'password', live: REDACTED, desired: `${REDACTED} (rotated)` });
    out.sendCredentials = true;
  }
  return out;
}
