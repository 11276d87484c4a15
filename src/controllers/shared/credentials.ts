/**
 * Resolves the API key for a managed object, in this order:
 * 1. `spec.credentialsRef`: a Secret in the object's own namespace (the tenant's own key);
 * 2. `spec.accountRef.name`, else the operator's `--default-account`: a cluster-scoped
 *    CdnAccount whose `namespaceSelector` must select the object's namespace, and whose Secret
 *    lives in the operator's namespace.
 * Errors name the Secret, key, account and namespace, never a value. No platform call happens
 * before this succeeds.
 */
import type { ConnectContext, ManagedObject, ObjectReference } from '../../runtime/types.js';
import { WaitingError, TerminalError } from '../../runtime/errors.js';
import {
  CDN_ACCOUNT_NAMES,
  CDN_ACCOUNT_RESOURCE,
  DEFAULT_ACCOUNT_KEY,
  servesAccount,
  type CdnAccountSpec,
} from './account-types.js';
import { typeMetaOf } from '../kind-names.js';
import { AccountError, AccountReasons, accountNotAllowedMessage } from './account-errors.js';
import { DEFAULT_CREDENTIALS_KEY } from './account-schema.js';
import type { ControllerDeps } from './deps.js';
import { matchesLabelSelector } from './label-selector.js';

/** Reasons produced while resolving credentials. */
export const CredentialReasons = {
  CredentialsNotFound: 'CredentialsNotFound',
  NoCredentials: 'NoCredentials',
  InvalidSpec: 'InvalidSpec',
} as const;

/** How soon a missing Secret or key is looked at again (its watch usually fires sooner). */
const MISSING_SECRET_REQUEUE_MS = 30_000;

/** Namespaces, whose labels an account's namespaceSelector matches (watched by the runtime). */
export const NAMESPACES = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
} as const;

interface SecretKeyRef {
  name: string;
  key?: string;
}

type AccountDeps = Pick<ControllerDeps, 'defaultAccount' | 'operatorNamespace'>;

function readRef(
  obj: ManagedObject,
  field: 'credentialsRef' | 'accountRef',
): SecretKeyRef | undefined {
  const spec = obj.spec ?? {};
  const ref = Object.hasOwn(spec, field) ? (spec[field] as SecretKeyRef | undefined) : undefined;
  return ref && typeof ref.name === 'string' && ref.name !== '' ? ref : undefined;
}

/** The key inside a Secret, never a prototype member: `__proto__` or `constructor` is just a name. */
function keyOf(ref: SecretKeyRef, fallback: string): string {
  return typeof ref.key === 'string' && ref.key !== '' ? ref.key : fallback;
}

/**
 * The tenant Secret the object's credentials come from (`spec.credentialsRef`). Account
 * Secrets live in the operator's namespace and are the CdnAccount's references.
 */
export function credentialsSecretOf(
  obj: ManagedObject,
  _deps?: unknown,
): { namespace: string; name: string; key: string } | undefined {
  const ref = readRef(obj, 'credentialsRef');
  if (!ref) return undefined;
  return {
    namespace: obj.metadata.namespace,
    name: ref.name,
    key: keyOf(ref, DEFAULT_CREDENTIALS_KEY),
  };
}

/**
 * What an object's credentials depend on, for `ManagedKind.references`: its own Secret
 * (`spec.credentialsRef`), or the CdnAccount it uses and its Namespace (whose labels the
 * account's namespaceSelector matches). A change to any of them re-enqueues the object, so an
 * account opened to a namespace (or closed) takes effect without waiting for a retry or a poll.
 */
export function credentialReferences(
  obj: ManagedObject,
  deps: Pick<AccountDeps, 'defaultAccount'>,
): ObjectReference[] {
  const own = credentialsSecretOf(obj);
  if (own) return [{ apiVersion: 'v1', kind: 'Secret', namespace: own.namespace, name: own.name }];
  const account = accountNameOf(obj, deps);
  if (!account) return [];
  return [
    { ...typeMetaOf(CDN_ACCOUNT_NAMES), namespace: '', name: account },
    { apiVersion: 'v1', kind: NAMESPACES.kind, namespace: '', name: obj.metadata.namespace },
  ];
}

/**
 * Reads one key of a Secret. A missing Secret and a missing (or empty) key are different
 * waiting conditions, each naming the Secret and key.
 */
async function readSecretKey(
  ctx: Pick<ConnectContext, 'readSecret'>,
  source: { namespace: string; name: string; key: string },
): Promise<string> {
  const where = `Secret ${source.namespace}/${source.name}`;
  const data = await ctx.readSecret(source.namespace, source.name);
  if (!data)
    throw new WaitingError(
      CredentialReasons.CredentialsNotFound,
      `cannot resolve credentials: ${where} not found`,
      MISSING_SECRET_REQUEUE_MS,
    );
  const raw = Object.hasOwn(data, source.key) ? data[source.key] : undefined;
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!value)
    throw new WaitingError(
      CredentialReasons.CredentialsNotFound,
      `cannot resolve credentials: key ${JSON.stringify(source.key)} missing in ${where}${raw === undefined ? '' : ' (empty)'}`,
      MISSING_SECRET_REQUEUE_MS,
    );
  return value;
}

function readClusterObject(
  ctx: Pick<ConnectContext, 'readClusterObject'>,
): NonNullable<ConnectContext['readClusterObject']> {
  if (!ctx.readClusterObject)
    throw new Error('cannot use a CdnAccount: the runtime offers no cluster-scoped reads');
  return ctx.readClusterObject;
}

/** The account an object uses: its `spec.accountRef.name`, else the operator's default. */
export function accountNameOf(
  obj: ManagedObject,
  deps: Pick<AccountDeps, 'defaultAccount'>,
): string | undefined {
  return readRef(obj, 'accountRef')?.name ?? deps.defaultAccount;
}

/** Throws when another release's operator serves the account (`spec.secretRef.namespace`). */
function refuseAccountOfOtherRelease(
  name: string,
  spec: CdnAccountSpec,
  operatorNamespace: string,
): void {
  if (servesAccount(spec, operatorNamespace)) return;
  throw new AccountError(
    AccountReasons.AccountNotAllowed,
    `cannot use CdnAccount ${name}: it is served by the operator in namespace ${String(spec.secretRef?.namespace)} (spec.secretRef.namespace), not by this one in ${operatorNamespace}; use an account of this release or move the object to its shard`,
  );
}

async function accountSecret(
  obj: ManagedObject,
  name: string,
  ctx: Pick<ConnectContext, 'readClusterObject'>,
  deps: AccountDeps,
): Promise<{ namespace: string; name: string; key: string }> {
  const read = readClusterObject(ctx);
  const account = await read(CDN_ACCOUNT_RESOURCE, name);
  if (!account)
    throw new AccountError(
      AccountReasons.AccountNotFound,
      `cannot use CdnAccount ${name}: not found`,
    );
  const spec = (account.spec ?? {}) as CdnAccountSpec;
  const namespace = obj.metadata.namespace;
  const ns = await read(NAMESPACES, namespace);
  if (!matchesLabelSelector(spec.namespaceSelector, ns?.metadata.labels)) {
    throw new AccountError(
      AccountReasons.AccountNotAllowed,
      accountNotAllowedMessage(name, namespace, spec.namespaceSelector),
    );
  }
  const operatorNamespace = deps.operatorNamespace ?? 'default';
  refuseAccountOfOtherRelease(name, spec, operatorNamespace);
  const secretName = spec.secretRef?.name;
  if (typeof secretName !== 'string' || secretName === '')
    throw new AccountError(
      AccountReasons.AccountNotFound,
      `cannot use CdnAccount ${name}: spec.secretRef.name is not set`,
    );
  return {
    namespace: operatorNamespace,
    name: secretName,
    key: keyOf({ name: secretName, ...spec.secretRef }, DEFAULT_ACCOUNT_KEY),
  };
}

/**
 * Returns the API key. A missing Secret or key is a waiting condition (the Secret may be
 * created later); an account that does not allow the object's namespace is an AccountError;
 * no account and no credentialsRef at all is terminal until the spec changes.
 */
export async function resolveApiKey(
  obj: ManagedObject,
  ctx: Pick<ConnectContext, 'readSecret' | 'readClusterObject'>,
  deps: AccountDeps,
): Promise<string> {
  const own = credentialsSecretOf(obj);
  if (own && readRef(obj, 'accountRef'))
    throw new TerminalError(
      CredentialReasons.InvalidSpec,
      'cannot resolve credentials: spec.credentialsRef and spec.accountRef are both set; set one of them',
    );
  if (own) return readSecretKey(ctx, own);
  const account = accountNameOf(obj, deps);
  if (!account) {
    throw new TerminalError(
      CredentialReasons.NoCredentials,
      'cannot resolve credentials: set spec.accountRef.name (a CdnAccount open to this namespace) or spec.credentialsRef; the operator has no default account',
    );
  }
  return readSecretKey(ctx, await accountSecret(obj, account, ctx, deps));
}
