/**
 * Keeps each CdnAccount's `Ready` condition true to its Secret: `True SecretResolved` when the
 * Secret in the operator's namespace has a non-empty key, else `False SecretNotFound` /
 * `KeyMissing` naming Secret and key (never a value). One list per interval (default 60 s;
 * failures back off doubling to 5 min), one status patch only when the condition changes. No
 * per-account state is kept between passes, so a deleted account leaves nothing behind.
 */
import type { Logger } from 'pino';
import { isKubeStatus, type KubeClient } from '../../runtime/kube-client.js';
import {
  DEFAULT_ACCOUNT_KEY,
  GROUP,
  PLURAL,
  VERSION,
  servesAccount,
  type CdnAccountSpec,
} from './types.js';

/** Reasons of the CdnAccount Ready condition. */
export const AccountStatusReasons = {
  SecretResolved: 'SecretResolved',
  SecretNotFound: 'SecretNotFound',
  KeyMissing: 'KeyMissing',
} as const;

const MAX_BACKOFF_MS = 5 * 60_000;

interface AccountCondition {
  type: 'Ready';
  status: 'True' | 'False';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

interface AccountObject {
  metadata: { name: string; generation?: number };
  spec?: CdnAccountSpec;
  status?: { conditions?: AccountCondition[] };
}

/** Options of {@link startAccountStatusLoop}. */
export interface AccountStatusOptions {
  client: KubeClient;
  operatorNamespace: string;
  log: Logger;
  intervalMs?: number;
}

async function readSecretData(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<Record<string, string> | undefined> {
  try {
    const secret = await client.request<{ data?: Record<string, string> }>({
      method: 'GET',
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`,
    });
    return secret.data ?? {};
  } catch (err) {
    if (isKubeStatus(err, 404)) return undefined;
    throw err;
  }
}

function secretRefOf(account: AccountObject): { name: string; key: string } {
  const ref = account.spec?.secretRef;
  return {
    name: typeof ref?.name === 'string' ? ref.name : '',
    key: typeof ref?.key === 'string' && ref.key !== '' ? ref.key : DEFAULT_ACCOUNT_KEY,
  };
}

/** The Ready condition an account should have (without timestamps). */
export async function accountCondition(
  account: AccountObject,
  client: KubeClient,
  operatorNamespace: string,
): Promise<AccountCondition> {
  const { name, key } = secretRefOf(account);
  const where = `Secret ${operatorNamespace}/${name}`;
  const base = { type: 'Ready' as const, observedGeneration: account.metadata.generation ?? 0 };
  const data = name ? await readSecretData(client, operatorNamespace, name) : undefined;
  if (!data) {
    const reason = AccountStatusReasons.SecretNotFound;
    return { ...base, status: 'False', reason, message: `${where} not found` };
  }
  if (!(Object.hasOwn(data, key) && data[key])) {
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

function sameCondition(a: AccountCondition | undefined, b: AccountCondition): boolean {
  return (
    a !== undefined &&
    a.status === b.status &&
    a.reason === b.reason &&
    a.message === b.message &&
    a.observedGeneration === b.observedGeneration
  );
}

async function syncAccount(account: AccountObject, opts: AccountStatusOptions): Promise<void> {
  // An account served by another release's operator is that operator's to report on: two
  // operators writing their own verdicts into one status would make it flap.
  if (!servesAccount(account.spec, opts.operatorNamespace)) return;
  const want = await accountCondition(account, opts.client, opts.operatorNamespace);
  const have = account.status?.conditions?.find((c) => c.type === 'Ready');
  if (sameCondition(have, want)) return;
  const lastTransitionTime =
    have?.status === want.status && have.lastTransitionTime
      ? have.lastTransitionTime
      : new Date().toISOString();
  await opts.client.request({
    method: 'PATCH',
    path: `/apis/${GROUP}/${VERSION}/${PLURAL}/${encodeURIComponent(account.metadata.name)}/status`,
    contentType: 'application/merge-patch+json',
    body: { status: { conditions: [{ ...want, lastTransitionTime }] } },
  });
}

/** One pass over every CdnAccount. */
export async function syncAccountStatuses(opts: AccountStatusOptions): Promise<void> {
  const list = await opts.client.request<{ items?: AccountObject[] }>({
    method: 'GET',
    path: `/apis/${GROUP}/${VERSION}/${PLURAL}`,
    verb: 'LIST',
  });
  for (const account of list.items ?? []) await syncAccount(account, opts);
}

/** Starts the loop; the returned function stops it. */
export function startAccountStatusLoop(opts: AccountStatusOptions): () => void {
  const interval = opts.intervalMs ?? 60_000;
  let delay = interval;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = async (): Promise<void> => {
    try {
      await syncAccountStatuses(opts);
      delay = interval;
    } catch (err) {
      delay = Math.min(Math.max(delay, interval) * 2, MAX_BACKOFF_MS);
      opts.log.warn(
        { err: (err as Error).message, retryInMs: delay },
        'Cannot update CdnAccount status',
      );
    }
    if (!stopped) timer = setTimeout(() => void run(), delay).unref();
  };
  timer = setTimeout(() => void run(), 0).unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
