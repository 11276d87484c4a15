/**
 * Resolves the API key for a managed object: `spec.credentialsRef` (a Secret in the object's
 * namespace) or the operator's default credentials Secret. Errors name the Secret and key,
 * never a value.
 */
import type { ConnectContext, ManagedObject } from '../../runtime/types.js';
import { WaitingError, TerminalError } from '../../runtime/errors.js';
import type { ControllerDeps } from './deps.js';

/** Reasons produced while resolving credentials. */
export const CredentialReasons = {
  CredentialsNotFound: 'CredentialsNotFound',
  NoCredentials: 'NoCredentials',
} as const;

/** Default key inside a credentials Secret when `credentialsRef.key` is omitted. */
export const DEFAULT_CREDENTIALS_KEY = 'apiKey';

interface CredentialsRef {
  name: string;
  key?: string;
}

function readRef(obj: ManagedObject): CredentialsRef | undefined {
  const ref = obj.spec?.credentialsRef as CredentialsRef | undefined;
  return ref && typeof ref.name === 'string' && ref.name !== '' ? ref : undefined;
}

/** The Secret the object's credentials come from, for watches (`references`). */
export function credentialsSecretOf(
  obj: ManagedObject,
  deps: Pick<ControllerDeps, 'defaultCredentials'>,
): { namespace: string; name: string; key: string } | undefined {
  const ref = readRef(obj);
  if (ref)
    return {
      namespace: obj.metadata.namespace,
      name: ref.name,
      key: ref.key ?? DEFAULT_CREDENTIALS_KEY,
    };
  return deps.defaultCredentials;
}

/**
 * Returns the API key. A missing Secret or key is a waiting condition (the Secret may be
 * created later, and its watch re-enqueues the object); no credentials configured at all is
 * terminal until the spec changes.
 */
export async function resolveApiKey(
  obj: ManagedObject,
  ctx: Pick<ConnectContext, 'readSecret'>,
  deps: Pick<ControllerDeps, 'defaultCredentials'>,
): Promise<string> {
  const source = credentialsSecretOf(obj, deps);
  if (!source) {
    throw new TerminalError(
      CredentialReasons.NoCredentials,
      'cannot resolve credentials: spec.credentialsRef is not set and the operator has no default credentials Secret',
    );
  }
  const where = `Secret ${source.namespace}/${source.name} key ${JSON.stringify(source.key)}`;
  const data = await ctx.readSecret(source.namespace, source.name);
  if (!data)
    throw new WaitingError(
      CredentialReasons.CredentialsNotFound,
      `cannot resolve credentials: ${where} not found`,
      30_000,
    );
  const value = data[source.key]?.trim();
  if (!value)
    throw new WaitingError(
      CredentialReasons.CredentialsNotFound,
      `cannot resolve credentials: ${where} is missing or empty`,
      30_000,
    );
  return value;
}
