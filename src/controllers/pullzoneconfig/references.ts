/**
 * Secrets a PullZoneConfig depends on besides its credentials: secret-valued settings
 * (`<setting>Ref`) and custom certificates (`kubernetes.io/tls` Secrets). Resolved at connect
 * time; a missing Secret or key is a waiting condition (its watch re-enqueues the object).
 * Values are never put into errors; custom certificates are identified by a sha256 hash.
 * Also the ids of other kinds' resources the spec names directly ({@link idReferencesOf}).
 */
import { createHash } from 'node:crypto';
import { WaitingError } from '../../runtime/errors.js';
import type { ConnectContext, IdReference, ObjectReference } from '../../runtime/types.js';
import { ruleActions } from './edge-rules-mapping.js';
import { secretSettingRefs } from './mapping.js';
import { invalidIdError, parseAppId, parseIntegerId } from '../shared/platform-id.js';
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

/** Claim types of the kinds a PullZoneConfig can name by id (a kind's claims use its name). */
const STORAGE_ZONE = 'StorageZone';
const CONTAINER_APP = 'ContainerApp';
const EDGE_SCRIPT = 'EdgeScript';

/** Settings holding the id of another kind's resource, and that kind. */
const ID_SETTINGS: ReadonlyArray<[setting: string, type: string]> = [
  ['storageZoneId', STORAGE_ZONE],
  ['permaCacheStorageZoneId', STORAGE_ZONE],
  ['loggingStorageZoneId', STORAGE_ZONE],
  ['magicContainersAppId', CONTAINER_APP],
  ['edgeScriptId', EDGE_SCRIPT],
  ['middlewareScriptId', EDGE_SCRIPT],
];

/** Edge rule actions whose `parameter1` is the id of another kind's resource. */
const ID_ACTIONS: Readonly<Record<string, string>> = {
  OriginStorage: STORAGE_ZONE,
  OriginMagicContainers: CONTAINER_APP,
  RunEdgeScript: EDGE_SCRIPT,
};

/** What each claim type's id must be, in an error message. */
const EXPECTED: Readonly<Record<string, string>> = {
  [STORAGE_ZONE]: 'a storage zone id (a positive integer)',
  [CONTAINER_APP]: 'an application id (letters, digits, - and _)',
  [EDGE_SCRIPT]: 'a script id (a positive integer)',
};

/**
 * The id `value` names as a reference of `type`, parsed once (shared/platform-id.ts). Throws
 * InvalidSpec for a value that is not an id in the platform's form.
 */
function parseReference(field: string, type: string, value: unknown): IdReference {
  const id = type === CONTAINER_APP ? parseAppId(value) : parseIntegerId(value);
  if (id === undefined) throw invalidIdError(field, value, EXPECTED[type] ?? 'an id');
  return { field, type, id: String(id) };
}

/** A setting that names no resource: unset, or turned off (0, empty). */
function isOff(value: unknown): boolean {
  return value === undefined || value === null || value === 0 || value === '';
}

function edgeRuleIdReferences(obj: PullZoneConfig): IdReference[] {
  const out: IdReference[] = [];
  for (const rule of obj.spec?.edgeRules ?? []) {
    for (const { path, action } of ruleActions(rule)) {
      // A scriptRef names a script of this namespace (script-refs.ts): no id to check.
      const type = action?.scriptRef ? undefined : ID_ACTIONS[action?.type ?? ''];
      const field = `spec.edgeRules[${rule.name}].${path}.parameter1`;
      if (type) out.push(parseReference(field, type, action.parameter1));
    }
  }
  return out;
}

/**
 * Ids of other kinds' resources the spec names directly: the origin, permanent-cache and log
 * storage zones, a container app as origin, the edge script as origin and the middleware
 * script, and the storage zones, apps and scripts edge rules send requests to. The runtime
 * checks each like a `*Ref` (ReferenceNotAllowed when another namespace manages it);
 * `spec.storageZoneRef` and the script refs are resolved in this namespace and need none.
 * Throws InvalidSpec for one that is not an id in the platform's form (nothing is sent).
 */
export function idReferencesOf(obj: PullZoneConfig): IdReference[] {
  const settings = obj.spec?.settings ?? {};
  const out: IdReference[] = [];
  for (const [setting, type] of ID_SETTINGS) {
    const value = settings[setting];
    if (!isOff(value)) out.push(parseReference(`spec.settings.${setting}`, type, value));
  }
  return [...out, ...edgeRuleIdReferences(obj)];
}
