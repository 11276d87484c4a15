/**
 * Wiring of the StorageZone kind (`/storagezone`) into the
 * runtime: credentials -> shared CDN client -> {@link StorageZoneExternal}. References: the
 * credentials Secret and the password Secret (a change to either re-enqueues the object, so a
 * deleted or edited password Secret is restored at once).
 */
import { accountIdFor } from '../../cdn/credentials.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ManagedKind, ObjectReference } from '../../runtime/types.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialsSecretOf, resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { createSecretStore } from '../shared/owned-secret.js';
import { withMarkerKey } from '../shared/marker-key.js';
import { StorageZoneExternal } from './external.js';
import { passwordSecretNameOf } from './mapping.js';
import { managedNames } from '../kind-names.js';
import { STORAGE_ZONE_NAMES, type StorageZone } from './types.js';

const SPEC_PATHS: Record<string, string> = {
  Name: 'spec.name',
  Region: 'spec.region',
  ReplicationRegions: 'spec.replicationRegions',
  ReplicationZones: 'spec.replicationRegions',
  ZoneTier: 'spec.zoneTier',
  Rewrite404To200: 'spec.rewrite404To200',
  Custom404FilePath: 'spec.custom404FilePath',
};

/** Maps an API field named in a platform error to the spec path a user edits. */
export function specPathForApiField(apiField: string): string {
  const path = SPEC_PATHS[apiField];
  return path ? `${path} (${apiField})` : apiField;
}

function references(obj: StorageZone, deps: ControllerDeps): ObjectReference[] {
  const ns = obj.metadata.namespace;
  const refs: ObjectReference[] = [
    { apiVersion: 'v1', kind: 'Secret', namespace: ns, name: passwordSecretNameOf(obj) },
  ];
  const creds = credentialsSecretOf(obj, deps);
  if (creds)
    refs.push({ apiVersion: 'v1', kind: 'Secret', namespace: creds.namespace, name: creds.name });
  return refs;
}

/** Builds the StorageZone ManagedKind. */
export function createStorageZoneKind(deps: ControllerDeps): ManagedKind<StorageZone> {
  const secrets = createSecretStore(deps.kubeconfig);
  return {
    ...managedNames(STORAGE_ZONE_NAMES),
    idStatusField: 'storageZoneId',
    specExternalId: (obj) =>
      obj.spec?.storageZoneId !== undefined ? String(obj.spec.storageZoneId) : undefined,
    async connect(obj, ctx) {
      const apiKey = await resolveApiKey(obj, ctx, deps);
      const external = new StorageZoneExternal({
        client: getCdnClient(deps, apiKey),
        accountId: accountIdFor(apiKey),
        secrets,
      });
      return withMarkerKey(external, apiKey);
    },
    references: (obj) => references(obj, deps),
    classifyError: (err: unknown): ClassifiedError =>
      classifyCdnError(err, { specPathForField: specPathForApiField }),
  };
}

export type { StorageZone } from './types.js';
