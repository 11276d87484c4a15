/**
 * Wiring of the StorageZone kind (`/storagezone`) into the runtime: credentials -> shared CDN
 * client -> {@link StorageZoneExternal}. References: what the credentials depend on (a change
 * re-enqueues the object). The password Secret is the kind's connection Secret: the runtime
 * publishes it and watches it (a deleted or edited password Secret is restored at once).
 */
import { accountIdFor } from '../../cdn/credentials.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ConnectionSecret, ManagedKind } from '../../runtime/types.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialReferences, resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { withMarkerKey } from '../shared/marker-key.js';
import { OUTPUTS_READY, PasswordSecretNotReady, StorageZoneExternal } from './external.js';
import { passwordSecretNameOf } from './mapping.js';
import { managedNames } from '../kind-names.js';
import { STORAGE_ZONE_NAMES, type StorageZone } from './types.js';

const SPEC_PATHS: Record<string, string> = {
  Name: 'spec.name',
  Region: 'spec.region',
  ReplicationRegions: 'spec.replicationRegions',
  ReplicationZones: 'spec.replicationRegions',
  ZoneTier: 'spec.zoneTier',
  StorageZoneType: 'spec.storageZoneType',
  Rewrite404To200: 'spec.rewrite404To200',
  Custom404FilePath: 'spec.custom404FilePath',
};

/** Maps an API field named in a platform error to the spec path a user edits. */
export function specPathForApiField(apiField: string): string {
  const path = SPEC_PATHS[apiField];
  return path ? `${path} (${apiField})` : apiField;
}

/**
 * The password Secret (default `<name>-storagezone`): the zone is of no use without it, so
 * it is not Ready until the Secret is written.
 */
export const PASSWORD_SECRET: ConnectionSecret<StorageZone> = {
  nameOf: passwordSecretNameOf,
  conditionType: OUTPUTS_READY,
  what: 'password Secret',
  field: 'spec.passwordSecretRef.name',
  requiredForReady: PasswordSecretNotReady,
};

/** Builds the StorageZone ManagedKind. */
export function createStorageZoneKind(deps: ControllerDeps): ManagedKind<StorageZone> {
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
      });
      return withMarkerKey(external, apiKey);
    },
    references: (obj) => credentialReferences(obj, deps),
    connectionSecret: PASSWORD_SECRET,
    classifyError: (err: unknown): ClassifiedError =>
      classifyCdnError(err, { specPathForField: specPathForApiField }),
  };
}

export type { StorageZone } from './types.js';
