/**
 * The registry credentials: the user name and the password from `spec.passwordSecretRef` (a
 * Secret of the object's namespace, read through the ConnectContext, which registers the value
 * for redaction; used exactly as stored: a password may end in whitespace).
 *
 * The platform never returns the password, so rotation is detected on our side: status keeps
 * `passwordFingerprint`, a SHA-256 digest of the object's uid and the password last applied, or
 * accepted at adoption (without a recorded fingerprint the Secret is taken as the live password
 * and nothing is sent). A digest cannot be turned back into the password; it only tells that
 * the Secret now holds another value. Another user name also sends the credentials (the
 * document's `Credentials` takes the user name and the password together).
 */
import type { ContainerRegistry as RegistryRecord } from '../../cdn/security-types.js';
import { WaitingError } from '../../runtime/errors.js';
import type { ConnectContext, FieldDiff, ObjectReference } from '../../runtime/types.js';
import { REDACTED, renderValue } from '../shared/plan.js';
import type { UidSaltedDigest } from '../kind-module.js';
import { fingerprintSecretValue } from '../shared/secret-fingerprint.js';
import type { ContainerRegistry } from './types.js';

/** Condition reason while the password Secret or its key is missing. */
export const PasswordSecretNotFound = 'PasswordSecretNotFound';
/** How soon to look again while waiting (the Secret watch usually re-enqueues sooner). */
const WAIT_REQUEUE_MS = 30_000;

/** The password Secret as a reference: a change to it re-enqueues the object (rotation). */
export function passwordSecretReference(obj: ContainerRegistry): ObjectReference[] {
  const name = obj.spec?.passwordSecretRef?.name;
  if (!name) return [];
  return [{ apiVersion: 'v1', kind: 'Secret', namespace: obj.metadata.namespace, name }];
}

/** Reads the password; WaitingError (naming Secret and key, never a value) while missing. */
export async function readPassword(
  obj: ContainerRegistry,
  ctx: Pick<ConnectContext, 'readSecret'>,
): Promise<string> {
  const ref = obj.spec?.passwordSecretRef;
  if (!ref?.name || !ref.key) {
    throw new WaitingError(
      PasswordSecretNotFound,
      'cannot read the registry password: spec.passwordSecretRef needs name and key',
      WAIT_REQUEUE_MS,
    );
  }
  const where = `Secret ${obj.metadata.namespace}/${ref.name}`;
  const data = await ctx.readSecret(obj.metadata.namespace, ref.name);
  const value = data?.[ref.key];
  if (typeof value === 'string' && value !== '') return value;
  throw new WaitingError(
    PasswordSecretNotFound,
    data
      ? `waiting for ${where} to have key ${JSON.stringify(ref.key)} (spec.passwordSecretRef)${value === '' ? ': it is empty' : ''}`
      : `waiting for ${where} (spec.passwordSecretRef): not found`,
    WAIT_REQUEUE_MS,
  );
}

/** The `sha256:` fingerprint of `password` for the object `uid` (see the module comment). */
export function passwordFingerprint(uid: string | undefined, password: string): string {
  return fingerprintSecretValue('containerregistry', uid, password);
}

/** The password's digest, as the tools see it (KindModule `uidDigests`). */
export const PASSWORD_DIGEST: UidSaltedDigest = {
  statusPath: ['passwordFingerprint'],
  secretRefPath: ['passwordSecretRef'],
  digest: passwordFingerprint,
};

/** The status of a request body that carries a password: the password's fingerprint. */
export function sentFingerprint(
  obj: ContainerRegistry,
  sent: Record<string, unknown> | undefined,
): { passwordFingerprint?: string } {
  const password = (sent?.passwordCredentials as { password?: unknown } | undefined)?.password;
  return typeof password === 'string'
    ? { passwordFingerprint: passwordFingerprint(obj.metadata.uid, password) }
    : {};
}

/**
 * Plan entries of the credentials (never a password): the user name against the live one, the
 * password when the fingerprint `applied` (recorded in status) is not the Secret's (`current`).
 */
export function credentialDiffs(
  obj: ContainerRegistry,
  record: RegistryRecord,
  fingerprints: { applied?: string | undefined; current: string },
): FieldDiff[] {
  const out: FieldDiff[] = [];
  const username = obj.spec?.username;
  if (username !== undefined && record.userName !== username) {
    const live = renderValue(record.userName);
    out.push({ field: 'userName', live, desired: renderValue(username) });
  }
  const { applied, current } = fingerprints;
  if (applied !== undefined && applied !== current)
    out.push({ field: 'password', live: REDACTED, desired: `${REDACTED} (rotated)` });
  return out;
}

/** The replace must carry the credentials (a plan entry of {@link credentialDiffs}). */
export function sendsCredentials(diffs: readonly FieldDiff[]): boolean {
  return diffs.some((d) => d.field === 'userName' || d.field === 'password');
}
