/**
 * Secrets a PullZoneConfig depends on besides its credentials: secret-valued settings
 * (`<setting>Ref`) and custom certificates (`kubernetes.io/tls` Secrets). Resolved at connect
 * time; a missing Secret or key is a waiting condition (its watch re-enqueues the object).
 * Values are never put into errors; custom certificates are identified by a sha256 hash.
 */
import { createHash } from 'node:crypto';
import { WaitingError } from '../../runtime/errors.js';
import type { ConnectContext, ObjectReference } from '../../runtime/types.js';
import { secretSettingRefs } from './mapping.js';
import type { PullZoneConfig } from './types.js';

/** Reason of the waiting condition while a referenced Secret is missing. */
export const ReferenceNotReady = 'ReferenceNotReady';

/** A custom certificate as the API takes it, plus its content hash. */
export interface TlsMaterial {
  /** base64 of the PEM certificate chain. */
  certificate: string;
  /** base64 of the PEM private key (a secret). */
  certificateKey: string;
  /** sha256 hex of certificate + key PEM; safe to record in status. */
  hash: string;
}

/** Everything resolved from Secrets for one reconcile pass. */
export interface ResolvedSecrets {
  /** Values of secret settings by API name. */
  settings: Map<string, string>;
  /** Custom certificates by lowercased hostname. */
  tls: Map<string, TlsMaterial>;
}

/** sha256 hex of a certificate and key. */
export function hashTls(crt: string, key: string): string {
  return createHash('sha256').update(crt).update('\0').update(key).digest('hex');
}

function customCertificates(obj: PullZoneConfig): { hostname: string; secret: string }[] {
  return (obj.spec?.hostnames ?? []).flatMap((h) =>
    h.certificate?.type === 'Custom' && h.certificate.secretRef
      ? [{ hostname: h.hostname.toLowerCase(), secret: h.certificate.secretRef.name }]
      : [],
  );
}

/** Secrets referenced by settings and certificates (for the runtime's watches). */
export function secretReferences(obj: PullZoneConfig): ObjectReference[] {
  const names = new Set<string>();
  for (const ref of secretSettingRefs(obj.spec?.settings).values()) names.add(ref.name);
  for (const c of customCertificates(obj)) names.add(c.secret);
  return [...names].map((name) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    namespace: obj.metadata.namespace,
    name,
  }));
}

async function readKey(
  ctx: Pick<ConnectContext, 'readSecret'>,
  namespace: string,
  name: string,
  key: string,
  what: string,
): Promise<string> {
  const data = await ctx.readSecret(namespace, name);
  if (!data) {
    throw new WaitingError(
      ReferenceNotReady,
      `cannot read ${what}: Secret ${namespace}/${name} not found`,
    );
  }
  const value = data[key];
  if (value === undefined || value === '') {
    throw new WaitingError(
      ReferenceNotReady,
      `cannot read ${what}: Secret ${namespace}/${name} has no key ${JSON.stringify(key)}`,
    );
  }
  return value;
}

/** Reads every referenced Secret value. Throws WaitingError when one is missing. */
export async function resolveSecrets(
  obj: PullZoneConfig,
  ctx: Pick<ConnectContext, 'readSecret'>,
): Promise<ResolvedSecrets> {
  const ns = obj.metadata.namespace;
  const settings = new Map<string, string>();
  for (const [api, ref] of secretSettingRefs(obj.spec?.settings)) {
    settings.set(api, await readKey(ctx, ns, ref.name, ref.key, `setting ${api}`));
  }
  const tls = new Map<string, TlsMaterial>();
  for (const c of customCertificates(obj)) {
    const what = `certificate of ${c.hostname}`;
    const crt = await readKey(ctx, ns, c.secret, 'tls.crt', what);
    const key = await readKey(ctx, ns, c.secret, 'tls.key', what);
    tls.set(c.hostname, {
      certificate: Buffer.from(crt, 'utf8').toString('base64'),
      certificateKey: Buffer.from(key, 'utf8').toString('base64'),
      hash: hashTls(crt, key),
    });
  }
  return { settings, tls };
}
