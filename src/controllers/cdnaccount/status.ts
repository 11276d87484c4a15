/**
 * A CdnAccount's `Ready` condition, kept by the runtime (index.ts declares the kind): `True
 * SecretResolved` when the Secret in the operator's namespace has a non-empty key, else
 * `False SecretNotFound` / `KeyMissing` naming Secret and key (never a value). Pure apart from
 * the Secret read, which the runtime serves from its cache.
 */
import type { ConditionInput } from '../../runtime/conditions.js';
import type { ConnectContext } from '../../runtime/types.js';
import { DEFAULT_ACCOUNT_KEY, type CdnAccountSpec } from './types.js';

/** Reasons of the CdnAccount Ready condition. */
export const AccountStatusReasons = {
  SecretResolved: 'SecretResolved',
  SecretNotFound: 'SecretNotFound',
  KeyMissing: 'KeyMissing',
} as const;

/** A CdnAccount as the status check reads it. */
export interface AccountObject {
  metadata: { name: string; generation?: number };
  spec?: CdnAccountSpec;
}

/** The account's Secret name and key (the default key when none is given). */
export function secretRefOf(account: AccountObject): { name: string; key: string } {
  const ref = account.spec?.secretRef;
  return {
    name: typeof ref?.name === 'string' ? ref.name : '',
    key: typeof ref?.key === 'string' && ref.key !== '' ? ref.key : DEFAULT_ACCOUNT_KEY,
  };
}

/** The Ready condition an account should have. */
export async function accountCondition(
  account: AccountObject,
  readSecret: ConnectContext['readSecret'],
  operatorNamespace: string,
): Promise<ConditionInput> {
  const { name, key } = secretRefOf(account);
  const where = `Secret ${operatorNamespace}/${name}`;
  const base = { type: 'Ready', observedGeneration: account.metadata.generation ?? 0 };
  const data = name ? await readSecret(operatorNamespace, name) : undefined;
  if (!data) {
    const reason = AccountStatusReasons.SecretNotFound;
    return { ...base, status: 'False', reason, message: `${where} not found` };
  }
  const value = Object.hasOwn(data, key) ? data[key] : undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    const reason = AccountStatusReasons.KeyMissing;
    return {
      ...base,
      status: 'False',
      reason,
      message: `key ${JSON.stringify(key)} missing in ${where}`,
    };
  }
  const message = `API key read from ${where} key ${JSON.stringify(key)}`;
  return { ...base, status: 'True', reason: AccountStatusReasons.SecretResolved, message };
}
