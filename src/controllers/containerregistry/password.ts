/**
 * The registry password from `spec.passwordSecretRef` (a Secret in the object's namespace,
 * read through the ConnectContext, which registers the value for redaction). The value is
 * used exactly as stored: a password may end in whitespace.
 */
import { WaitingError } from '../../runtime/errors.js';
import type { ConnectContext, ObjectReference } from '../../runtime/types.js';
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
