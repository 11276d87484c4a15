/**
 * Pure spec <-> API mapping of a container registry: the display name, the add/replace body,
 * the status fields observed from a record and the password fingerprint.
 *
 * The platform never returns a registry's password, so rotation is detected on our side: the
 * status keeps `passwordFingerprint`, a SHA-256 digest of the object's uid and the password
 * last applied (or accepted when the registry was adopted). A digest cannot be turned back
 * into the password; it only tells that the Secret now holds another value.
 */
import { createHash } from 'node:crypto';
import type {
  ContainerRegistry as RegistryRecord,
  ContainerRegistryRequest,
} from '../../cdn/security-types.js';
import type { ContainerRegistry, ContainerRegistryStatus } from './types.js';

/** The registry's platform display name: `spec.displayName`, defaulting to `metadata.name`. */
export function displayNameOf(obj: ContainerRegistry): string {
  return obj.spec?.displayName ?? obj.metadata.name;
}

/** The `sha256:` fingerprint of `password` for the object `uid` (see the module comment). */
export function passwordFingerprint(uid: string | undefined, password: string): string {
  const hash = createHash('sha256').update(`containerregistry/${uid ?? ''}\u0000${password}`);
  return `sha256:${hash.digest('hex')}`;
}

/**
 * The add or replace body. With `password` the credentials are sent (create, rotation, a new
 * user name); without it a replace keeps the credentials the platform has.
 */
export function toRequest(obj: ContainerRegistry, password?: string): ContainerRegistryRequest {
  const body: ContainerRegistryRequest = { displayName: displayNameOf(obj) };
  if (obj.spec?.type !== undefined) body.type = obj.spec.type;
  if (password !== undefined) {
    body.passwordCredentials = { userName: obj.spec?.username ?? '', password };
  }
  return body;
}

/** The observed status fields of a record (the record carries no password). */
export function statusOf(record: RegistryRecord): ContainerRegistryStatus {
  const status: ContainerRegistryStatus = {};
  if (typeof record.id === 'number') status.registryId = record.id;
  if (record.displayName !== undefined) status.displayName = record.displayName;
  if (record.hostName !== undefined) status.hostName = record.hostName;
  if (typeof record.userName === 'string') status.username = record.userName;
  return status;
}
