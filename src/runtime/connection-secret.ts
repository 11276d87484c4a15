/**
 * Publishing a kind's connection details (Crossplane's connection Secret): the one Secret an
 * object creates and controls (ownerReference `controller: true` with the object's uid), e.g.
 * PullZoneConfig's outputs and StorageZone's passwords. Kinds only return the values from
 * observe/create/update; the reconciler publishes them here after the claim check and the
 * leader fence, and never for a refused, deleting or dry-run object.
 *
 * Publishing is a side effect of the platform reconcile, never part of it: the outcome is a
 * condition of its own and a failure never blocks recording an id or reporting Synced. Only a
 * Secret this object controls is ever written: an absent Secret is created with that
 * reference; an existing Secret controlled by anything else is refused and left untouched (no
 * reference added, no key written). Reads come from the Secret cache when it holds the Secret;
 * writes carry a precondition (create, or a patch pinned to the resourceVersion that was
 * checked), so a Secret swapped since — or a stale cache — fails the write (409) instead of
 * being overwritten, and the next pass looks again. Messages name the Secret and the HTTP
 * status, never a value. Needs RBAC `create` and `patch` on Secrets.
 */
import type { KubeObject } from './cache.js';
import { findCondition, type ConditionInput } from './conditions.js';
import { KubeApiError, type KubeClient } from './kube-client.js';
import { jsonEqual } from './merge-patch.js';
import { SECRETS, resourcePath } from './resource.js';
import { NOT_CACHED, type OwnerReference } from './secondary.js';
import type { ConnectionDetails, ConnectionSecret, ManagedObject } from './types.js';

export type { OwnerReference } from './secondary.js';

/** Reasons of a connection-Secret condition (`OutputsReady`). */
export const ConnectionSecretReason = {
  /** The Secret holds the current values. */
  Written: 'OutputsWritten',
  /** The Secret exists and is not controlled by this object; nothing was written. */
  NotOwned: 'SecretNotOwned',
  /** The Kubernetes API denied the write (RBAC: `outputs.enabled` in the chart). */
  Forbidden: 'Forbidden',
  /** Any other failure of the read or write. */
  WriteFailed: 'WriteFailed',
  /** The Secret is not asked for (shown only after it was removed from the spec). */
  NotRequested: 'NotRequested',
} as const;

/** What the publisher needs to know about an existing Secret. */
export interface StoredSecret {
  resourceVersion: string;
  ownerReferences: OwnerReference[];
  /** Decoded data. */
  data: Record<string, string>;
}

/** Kubernetes access of the publisher; injectable for tests. */
export interface SecretAccess {
  /** The Secret as cached (or read), undefined when absent. */
  get(namespace: string, name: string): Promise<StoredSecret | undefined>;
  /** Creates the Secret; fails (409) when it exists. */
  create(
    namespace: string,
    name: string,
    owner: OwnerReference,
    data: Record<string, string>,
  ): Promise<void>;
  /** Merge-patches `data` (null removes a key); fails (409) unless the resourceVersion matches. */
  patchData(
    namespace: string,
    name: string,
    resourceVersion: string,
    data: Record<string, string | null>,
  ): Promise<void>;
}

/** A connection Secret of one object: the kind's declaration with the object's Secret name. */
export type ConnectionTarget = Omit<ConnectionSecret, 'nameOf' | 'requiredForReady'> & {
  name: string;
};

/** The outcome of one publish. */
export interface PublishResult {
  condition: ConditionInput;
  /** A create or patch was sent (counted as an object write). */
  wrote: boolean;
}

/** The ownerReference that makes `obj` the Secret's controller. */
export function controllerRefOf(obj: ManagedObject): OwnerReference {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name,
    uid: obj.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: false,
  };
}

/** True when `obj` (by uid) is the Secret's controller. */
export function isControlledBy(secret: StoredSecret, obj: ManagedObject): boolean {
  const uid = obj.metadata.uid;
  return (
    uid !== undefined && secret.ownerReferences.some((r) => r.controller === true && r.uid === uid)
  );
}

function conditionOf(
  obj: ManagedObject,
  t: Pick<ConnectionTarget, 'conditionType'>,
  status: 'True' | 'False',
  reason: string,
  message: string,
): ConditionInput {
  const type = t.conditionType;
  return { type, status, reason, message, observedGeneration: obj.metadata.generation };
}

/** The condition of an object whose kind publishes a Secret but which asks for none. */
export function notRequestedCondition(
  obj: ManagedObject,
  t: Pick<ConnectionSecret, 'conditionType' | 'field'>,
): ConditionInput {
  return conditionOf(obj, t, 'True', ConnectionSecretReason.NotRequested, `${t.field} is not set`);
}

/** The patch turning `current` into `desired` (null removes a key); empty when equal. */
function dataPatch(
  current: Record<string, string>,
  desired: Record<string, string>,
): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(desired)) if (current[k] !== v) patch[k] = v;
  for (const k of Object.keys(current)) if (!(k in desired)) patch[k] = null;
  return patch;
}

/** A condition for a failed read or write; names the Secret and the HTTP status, never data. */
function failureOf(obj: ManagedObject, t: ConnectionTarget, err: unknown): ConditionInput {
  const status = err instanceof KubeApiError ? err.statusCode : undefined;
  if (status === 403)
    return conditionOf(
      obj,
      t,
      'False',
      ConnectionSecretReason.Forbidden,
      `cannot write ${t.what} ${t.name}: the operator may not write Secrets (403; Helm value outputs.enabled=true grants it)`,
    );
  const what = status !== undefined ? `HTTP ${status}` : 'no response';
  return conditionOf(
    obj,
    t,
    'False',
    ConnectionSecretReason.WriteFailed,
    `cannot write ${t.what} ${t.name}: Kubernetes API ${what}; retried on the next pass`,
  );
}

async function writeOwned(
  obj: ManagedObject,
  t: ConnectionTarget,
  data: ConnectionDetails,
  access: SecretAccess,
  sent: { wrote: boolean },
): Promise<ConditionInput> {
  const ns = obj.metadata.namespace;
  const current = await access.get(ns, t.name);
  if (!current) {
    sent.wrote = true;
    await access.create(ns, t.name, controllerRefOf(obj), data);
  } else if (!isControlledBy(current, obj)) {
    const message = `cannot write ${t.what} ${t.name}: it exists and is not controlled by this ${obj.kind}; delete it or choose another ${t.field}`;
    return conditionOf(obj, t, 'False', ConnectionSecretReason.NotOwned, message);
  } else if (!jsonEqual(current.data, data)) {
    sent.wrote = true;
    await access.patchData(ns, t.name, current.resourceVersion, dataPatch(current.data, data));
  }
  const message = `The ${t.what} ${t.name} is up to date`;
  return conditionOf(obj, t, 'True', ConnectionSecretReason.Written, message);
}

/**
 * Brings the Secret `target.name` in line with `data` and returns the condition to report.
 * Never throws, except when `signal` aborted (shutdown).
 */
export async function publishConnectionSecret(
  obj: ManagedObject,
  target: ConnectionTarget,
  data: ConnectionDetails,
  access: SecretAccess,
  signal?: AbortSignal,
): Promise<PublishResult> {
  const sent = { wrote: false };
  try {
    return { condition: await writeOwned(obj, target, data, access, sent), wrote: sent.wrote };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { condition: failureOf(obj, target, err), wrote: sent.wrote };
  }
}

/** What the publish step of a pass adds to it. */
export interface PublishOutcome {
  /** The kind's condition to merge (absent when there is nothing to report). */
  condition?: ConditionInput;
  /** A create or patch was sent. */
  wrote: boolean;
  /** Set when the kind requires the Secret for Ready and it is not written. */
  notReady?: { reason: string; message: string };
}

/**
 * The publish step of a pass: writes `details` into the object's connection Secret when the
 * kind declares one and the object names one; reports `NotRequested` once after the object
 * stopped asking for it. Called only after the claim check and the leader fence passed.
 */
export async function publishDetails(
  obj: ManagedObject,
  spec: ConnectionSecret,
  details: ConnectionDetails | undefined,
  access: SecretAccess,
  signal?: AbortSignal,
): Promise<PublishOutcome> {
  const name = spec.nameOf(obj);
  if (name === undefined) {
    const shown = findCondition(obj.status?.conditions, spec.conditionType) !== undefined;
    return shown ? { condition: notRequestedCondition(obj, spec), wrote: false } : { wrote: false };
  }
  if (!details) return { wrote: false };
  const target: ConnectionTarget = {
    name,
    conditionType: spec.conditionType,
    what: spec.what,
    field: spec.field,
  };
  const { condition, wrote } = await publishConnectionSecret(obj, target, details, access, signal);
  if (!spec.requiredForReady || condition.status === 'True') return { condition, wrote };
  return {
    condition,
    wrote,
    notReady: { reason: spec.requiredForReady, message: condition.message },
  };
}

/** The Secret cache the access reads from and writes through (secondary.ts). */
export interface SecretCache {
  cached(namespace: string, name: string): KubeObject | undefined | typeof NOT_CACHED;
  get(namespace: string, name: string): Promise<KubeObject | undefined>;
  storeWritten(obj: KubeObject): void;
}

const encode = (v: string): string => Buffer.from(v, 'utf8').toString('base64');

function storedOf(s: KubeObject): StoredSecret {
  const data = (s.data ?? {}) as Record<string, string>;
  return {
    resourceVersion: s.metadata.resourceVersion ?? '',
    ownerReferences: (s.metadata.ownerReferences as OwnerReference[] | undefined) ?? [],
    data: Object.fromEntries(
      Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
    ),
  };
}

/**
 * {@link SecretAccess} on the runtime's Kubernetes client: reads from the Secret cache when it
 * holds the Secret (else one GET), writes with preconditions and stores each answer in the cache.
 */
export function createSecretAccess(client: KubeClient, cache: SecretCache): SecretAccess {
  const write = async (req: Parameters<KubeClient['request']>[0]): Promise<void> => {
    cache.storeWritten(await client.request<KubeObject>(req));
  };
  return {
    async get(namespace, name) {
      const hit = cache.cached(namespace, name);
      const s = hit === NOT_CACHED ? await cache.get(namespace, name) : hit;
      return s ? storedOf(s) : undefined;
    },
    create: (namespace, name, owner, data) =>
      write({
        method: 'POST',
        path: resourcePath(SECRETS, namespace),
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: {
            name,
            namespace,
            labels: { 'app.kubernetes.io/managed-by': 'cdn-operator' },
            ownerReferences: [owner],
          },
          data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, encode(v)])),
        },
      }),
    patchData: (namespace, name, resourceVersion, data) =>
      write({
        method: 'PATCH',
        path: resourcePath(SECRETS, namespace, name),
        contentType: 'application/merge-patch+json',
        body: {
          metadata: { resourceVersion },
          data: Object.fromEntries(
            Object.entries(data).map(([k, v]) => [k, v === null ? null : encode(v)]),
          ),
        },
      }),
  };
}
