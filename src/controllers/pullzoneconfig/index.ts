/**
 * Wiring of the PullZoneConfig kind: `createPullZoneConfigKind(deps)` returns the
 * ManagedKind the runtime runs (connect = credentials + referenced Secrets -> external
 * client; references = credentials, secret settings, TLS Secrets, outputs Secret, and the
 * StorageZone of spec.storageZoneRef).
 */
import { accountIdFor } from '../../cdn/credentials.js';
import { withMarkerKey } from '../shared/marker-key.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ManagedKind, ObjectReference } from '../../runtime/types.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialsSecretOf, resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { PullZoneExternal } from './external.js';
import { createSecretStore } from './outputs.js';
import { FIELDS_BY_API, secretRefName } from './fields.js';
import { resolveSecrets, secretReferences } from './references.js';
import { resolveStorageOrigin, storageZoneReference, withStorageOrigin } from './storage-origin.js';
import { managedNames } from '../kind-names.js';
import { PULL_ZONE_CONFIG_NAMES, type PullZoneConfig } from './types.js';

/** Maps an API field named in a platform error to the spec path a user edits. */
export function specPathForApiField(apiField: string): string {
  const f = FIELDS_BY_API.get(apiField);
  if (!f) return apiField;
  return `spec.settings.${f.secret ? secretRefName(f) : f.spec} (${apiField})`;
}

function references(obj: PullZoneConfig, deps: ControllerDeps): ObjectReference[] {
  const refs = secretReferences(obj);
  const creds = credentialsSecretOf(obj, deps);
  if (creds)
    refs.push({ apiVersion: 'v1', kind: 'Secret', namespace: creds.namespace, name: creds.name });
  const outputs = obj.spec?.writeOutputsTo;
  if (outputs)
    refs.push({
      apiVersion: 'v1',
      kind: 'Secret',
      namespace: obj.metadata.namespace,
      name: outputs,
    });
  const storageZone = storageZoneReference(obj);
  if (storageZone) refs.push(storageZone);
  return refs;
}

/** Builds the PullZoneConfig ManagedKind. */
export function createPullZoneConfigKind(deps: ControllerDeps): ManagedKind<PullZoneConfig> {
  const outputs = createSecretStore(deps.kubeconfig);
  return {
    ...managedNames(PULL_ZONE_CONFIG_NAMES),
    idStatusField: 'pullZoneId',
    specExternalId: (obj) =>
      obj.spec?.pullZoneId !== undefined ? String(obj.spec.pullZoneId) : undefined,
    async connect(obj, ctx) {
      const apiKey = await resolveApiKey(obj, ctx, deps);
      const accountId = accountIdFor(apiKey);
      const origin = resolveStorageOrigin(obj, (ref) => ctx.getObject(ref), accountId);
      const secrets = await resolveSecrets(obj, ctx);
      const external = new PullZoneExternal({
        client: getCdnClient(deps, apiKey),
        accountId,
        secrets,
        outputs,
      });
      return withMarkerKey(withStorageOrigin(external, origin), apiKey);
    },
    references: (obj) => references(obj, deps),
    classifyError: (err: unknown): ClassifiedError =>
      classifyCdnError(err, { specPathForField: specPathForApiField }),
  };
}
