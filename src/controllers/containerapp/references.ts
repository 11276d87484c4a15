/**
 * Objects a ContainerApp depends on and their resolution: the credentials Secret, Secrets and
 * ConfigMaps read by environment variables, the log forwarding token's Secret
 * (`logForwarding.tokenSecretRef`), PullZoneConfigs named by endpoints and
 * ContainerRegistries named by container templates (`registryRef`). The
 * runtime watches everything {@link referencesOf} returns and re-enqueues the app on change.
 */
import { statusIdOf } from '../kit/ref-or-id.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { createHash } from 'node:crypto';
import { WaitingError } from '../../runtime/errors.js';
import type { ConnectContext, IdReference, ObjectReference } from '../../runtime/types.js';
import { credentialReferences } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { envKey, type ResolvedRefs } from './mapping.js';
import { typeMetaOf } from '../kind-names.js';
import { CONTAINER_REGISTRY_NAMES } from '../containerregistry/types.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import {
  invalidIdError,
  parseAppId,
  parseIntegerId,
  parseRegistryId,
} from '../shared/platform-id.js';
import type { ContainerApp, ContainerSpec, KeySelector } from './types.js';

/** Condition reason while a referenced object is missing or not ready. */
export const ReferenceNotReady = 'ReferenceNotReady';
/** How soon to look again while waiting (watches usually re-enqueue sooner). */
const WAIT_REQUEUE_MS = 15_000;

const PULL_ZONE_CONFIG_TYPE = typeMetaOf(PULL_ZONE_CONFIG_NAMES);
const CONTAINER_REGISTRY_TYPE = typeMetaOf(CONTAINER_REGISTRY_NAMES);

interface EnvSource {
  container: string;
  variable: string;
  kind: 'Secret' | 'ConfigMap';
  ref: KeySelector;
}

function envSources(obj: ContainerApp): EnvSource[] {
  const out: EnvSource[] = [];
  for (const c of obj.spec.containerTemplates ?? []) {
    for (const v of c.environmentVariables ?? []) {
      const secret = v.valueFrom?.secretKeyRef;
      const configMap = v.valueFrom?.configMapKeyRef;
      if (secret) out.push({ container: c.name, variable: v.name, kind: 'Secret', ref: secret });
      else if (configMap) {
        out.push({ container: c.name, variable: v.name, kind: 'ConfigMap', ref: configMap });
      }
    }
  }
  return out;
}

function pullZoneRefNames(obj: ContainerApp): string[] {
  const names = new Set<string>();
  for (const c of obj.spec.containerTemplates ?? []) {
    for (const e of c.endpoints ?? []) {
      if (e.cdn?.pullZoneRef?.name) names.add(e.cdn.pullZoneRef.name);
    }
  }
  return [...names];
}

function registryRefNames(obj: ContainerApp): string[] {
  const names = new Set<string>();
  for (const c of obj.spec.containerTemplates ?? []) {
    if (c.registryRef?.name) names.add(c.registryRef.name);
  }
  return [...names];
}

/** Every object this app depends on (deduplicated). */
export function referencesOf(
  obj: ContainerApp,
  deps: Pick<ControllerDeps, 'defaultAccount'>,
): ObjectReference[] {
  const namespace = obj.metadata.namespace;
  const refs = new Map<string, ObjectReference>();
  const add = (r: ObjectReference): void => {
    refs.set(`${r.kind}/${r.namespace}/${r.name}`, r);
  };
  for (const r of credentialReferences(obj, deps)) add(r);
  for (const s of envSources(obj)) {
    add({ apiVersion: 'v1', kind: s.kind, namespace, name: s.ref.name });
  }
  const token = obj.spec.logForwarding?.tokenSecretRef;
  if (token?.name) add({ apiVersion: 'v1', kind: 'Secret', namespace, name: token.name });
  for (const name of pullZoneRefNames(obj)) add({ ...PULL_ZONE_CONFIG_TYPE, namespace, name });
  for (const name of registryRefNames(obj)) add({ ...CONTAINER_REGISTRY_TYPE, namespace, name });
  return [...refs.values()];
}

/**
 * A registry given by id (`imageRegistryId`) as a reference; a public registry's name names no
 * ContainerRegistry. Any other spelling is refused (an id is parsed once, shared/platform-id.ts).
 */
function registryIdReference(c: ContainerSpec): IdReference[] {
  const value = c.imageRegistryId;
  if (value === undefined) return [];
  const field = `spec.containerTemplates[${c.name}].imageRegistryId`;
  const parsed = parseRegistryId(value);
  if (!parsed) throw invalidIdError(field, value, "a registry id or a public registry's name");
  return 'id' in parsed
    ? [{ field, type: CONTAINER_REGISTRY_NAMES.kind, id: String(parsed.id) }]
    : [];
}

/** `spec.adoption.id` in the platform's form: it is refused before the claim check otherwise. */
function checkAppId(obj: ContainerApp): void {
  const value = adoptionIdOf(obj.spec);
  if (value !== undefined && parseAppId(value) === undefined)
    throw invalidIdError('spec.adoption.id', value, 'an application id (letters, digits, - and _)');
}

/**
 * Pull zones and registries the spec names by id (`endpoints[].cdn.pullZoneId`,
 * `imageRegistryId`): references checked by the runtime like `pullZoneRef` and `registryRef`
 * (ReferenceNotAllowed when another namespace manages the resource). A registry named by a
 * public registry's name is not a reference. Throws InvalidSpec for an id (these, or
 * `spec.adoption.id`) that is not in the platform's form.
 */
export function idReferencesOf(obj: ContainerApp): IdReference[] {
  checkAppId(obj);
  const out: IdReference[] = [];
  for (const c of obj.spec.containerTemplates ?? []) {
    out.push(...registryIdReference(c));
    for (const e of c.endpoints ?? []) {
      const id = parseIntegerId(e.cdn?.pullZoneId);
      if (id === undefined) continue;
      const field = `spec.containerTemplates[${c.name}].endpoints[${e.displayName}].cdn.pullZoneId`;
      out.push({ field, type: PULL_ZONE_CONFIG_NAMES.kind, id: String(id) });
    }
  }
  return out;
}

/** A referenced kind whose objects record a platform id in status. */
interface IdSource {
  type: { apiVersion: string; kind: string };
  field: 'pullZoneId' | 'registryId';
  what: string;
}

const PULL_ZONES: IdSource = {
  type: PULL_ZONE_CONFIG_TYPE,
  field: 'pullZoneId',
  what: 'a pull zone id',
};
const REGISTRIES: IdSource = {
  type: CONTAINER_REGISTRY_TYPE,
  field: 'registryId',
  what: 'a registry id',
};

/** Name -> recorded id of each named object; WaitingError while one has none. */
function resolveIds(
  namespace: string,
  names: string[],
  source: IdSource,
  ctx: ConnectContext,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const name of names) {
    const found = ctx.getObject({ ...source.type, namespace, name });
    const id = statusIdOf(found, source.field);
    if (id === undefined) {
      const what = `${source.type.kind} ${namespace}/${name}`;
      throw new WaitingError(
        ReferenceNotReady,
        found ? `waiting for ${what} to get ${source.what}` : `waiting for ${what}: not found`,
        WAIT_REQUEUE_MS,
      );
    }
    out.set(name, id);
  }
  return out;
}

async function readSource(
  s: EnvSource,
  namespace: string,
  ctx: ConnectContext,
): Promise<string | undefined> {
  const data =
    s.kind === 'Secret'
      ? await ctx.readSecret(namespace, s.ref.name)
      : await ctx.readConfigMap(namespace, s.ref.name);
  const value = data?.[s.ref.key];
  if (value !== undefined || s.ref.optional) return value;
  const where = `${s.kind} ${namespace}/${s.ref.name}`;
  // Name the object and key only: never the value, never other keys.
  throw new WaitingError(
    ReferenceNotReady,
    data
      ? `waiting for ${where} to have key ${JSON.stringify(s.ref.key)} (environment variable ${s.variable} of container ${s.container})`
      : `waiting for ${where} (environment variable ${s.variable} of container ${s.container}): not found`,
    WAIT_REQUEUE_MS,
  );
}

/**
 * The syslog token of `spec.logForwarding.tokenSecretRef`, used exactly as stored; undefined
 * without one. A missing Secret or key, or an empty value (an exported placeholder not filled
 * in yet: sending it would replace the platform's token), waits.
 */
async function readLogForwardingToken(
  obj: ContainerApp,
  ctx: Pick<ConnectContext, 'readSecret'>,
): Promise<string | undefined> {
  const ref = obj.spec.logForwarding?.tokenSecretRef;
  if (!ref) return undefined;
  const namespace = obj.metadata.namespace;
  const data = await ctx.readSecret(namespace, ref.name);
  const value = data?.[ref.key];
  if (typeof value === 'string' && value !== '') return value;
  const where = `Secret ${namespace}/${ref.name}`;
  // Name the object and key only: never the value, never other keys.
  throw new WaitingError(
    ReferenceNotReady,
    data
      ? `waiting for ${where} to have key ${JSON.stringify(ref.key)} (spec.logForwarding.tokenSecretRef)${value === '' ? ': it is empty' : ''}`
      : `waiting for ${where} (spec.logForwarding.tokenSecretRef): not found`,
    WAIT_REQUEUE_MS,
  );
}

/** Reads every referenced value. Throws WaitingError (ReferenceNotReady) while one is missing. */
export async function resolveRefs(obj: ContainerApp, ctx: ConnectContext): Promise<ResolvedRefs> {
  const namespace = obj.metadata.namespace;
  const pullZones = resolveIds(namespace, pullZoneRefNames(obj), PULL_ZONES, ctx);
  const registries = resolveIds(namespace, registryRefNames(obj), REGISTRIES, ctx);
  const env = new Map<string, string>();
  const secretEnv = new Set<string>();
  for (const s of envSources(obj)) {
    const key = envKey(s.container, s.variable);
    if (s.kind === 'Secret') secretEnv.add(key);
    const value = await readSource(s, obj.metadata.namespace, ctx);
    if (value !== undefined) env.set(key, value);
  }
  const logForwardingToken = await readLogForwardingToken(obj, ctx);
  return {
    env,
    secretEnv,
    pullZones,
    registries,
    ...(logForwardingToken !== undefined ? { logForwardingToken } : {}),
  };
}

/**
 * A digest of the referenced values, salted with the object's uid, for `status.environmentHash`:
 * it changes when a referenced value changes and reveals nothing else. Undefined without
 * references.
 */
export function environmentHash(uid: string | undefined, refs: ResolvedRefs): string | undefined {
  if (refs.env.size === 0) return undefined;
  const hash = createHash('sha256').update(`containerapp/${uid ?? ''}`);
  for (const [key, value] of [...refs.env.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`\u0001${key}\u0002${value}`);
  }
  return `sha256:${hash.digest('hex').slice(0, 32)}`;
}
