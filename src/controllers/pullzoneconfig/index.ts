/**
 * Wiring of the PullZoneConfig kind: `createPullZoneConfigKind(deps)` returns the
 * ManagedKind the runtime runs (connect = credentials + referenced Secrets -> external
 * client; references = what the credentials depend on, secret settings, TLS Secrets, the
 * StorageZone of spec.storageZoneRef, the EdgeScripts of the script refs and the owner of
 * spec.pullZoneFrom; the outputs Secret is its connection Secret, which the runtime publishes
 * and watches). A linked zone (spec.pullZoneFrom) is the kit's: kit/linked-resource.ts.
 */
import { accountIdFor } from '../../cdn/credentials.js';
import { withMarkerKey } from '../shared/marker-key.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ManagedKind, ObjectReference } from '../../runtime/types.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialReferences, resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { PullZoneExternal } from './external.js';
import { OUTPUTS_SECRET } from './outputs.js';
import { FIELDS_BY_API, secretRefName } from './fields.js';
import { idReferencesOf, resolveSecrets, secretReferences } from './references.js';
import { withMappedObject } from './mapped-external.js';
import { resolveScripts, scriptReferences, withScriptIds } from './script-refs.js';
import { resolveStorageOrigin, storageZoneReference, withStorageOrigin } from './storage-origin.js';
import { managedNames } from '../kind-names.js';
import { PULL_ZONE_CONFIG_NAMES, type PullZoneConfig } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';
import { linkedIdOf, linkReferenceOf, resolveLink, withLink } from '../kit/linked-resource.js';
import { PULL_ZONE_LINK } from './pull-zone-from.js';

/** Maps an API field named in a platform error to the spec path a user edits. */
export function specPathForApiField(apiField: string): string {
  const f = FIELDS_BY_API.get(apiField);
  if (!f) return apiField;
  return `spec.settings.${f.secret ? secretRefName(f) : f.spec} (${apiField})`;
}

function references(obj: PullZoneConfig, deps: ControllerDeps): ObjectReference[] {
  const refs = [
    ...secretReferences(obj),
    ...credentialReferences(obj, deps),
    ...scriptReferences(obj),
  ];
  const storageZone = storageZoneReference(obj);
  if (storageZone) refs.push(storageZone);
  const owner = linkReferenceOf(obj, PULL_ZONE_LINK);
  if (owner) refs.push(owner);
  return refs;
}

/** Builds the PullZoneConfig ManagedKind. */
export function createPullZoneConfigKind(deps: ControllerDeps): ManagedKind<PullZoneConfig> {
  return {
    ...managedNames(PULL_ZONE_CONFIG_NAMES),
    idStatusField: 'pullZoneId',
    specExternalId: (obj) => adoptionIdOf(obj.spec) ?? linkedIdOf(obj, PULL_ZONE_LINK),
    async connect(obj, ctx) {
      const apiKey = await resolveApiKey(obj, ctx, deps);
      const accountId = accountIdFor(apiKey);
      const origin = resolveStorageOrigin(obj, (ref) => ctx.getObject(ref), accountId);
      const scripts = resolveScripts(obj, (ref) => ctx.getObject(ref), accountId);
      const link = resolveLink(obj, PULL_ZONE_LINK, (ref) => ctx.getObject(ref), accountId);
      const secrets = await resolveSecrets(obj, ctx);
      const external = new PullZoneExternal({
        client: getCdnClient(deps, apiKey),
        accountId,
        secrets,
      });
      const resolved = withMappedObject(external, scripts && ((o) => withScriptIds(o, scripts)));
      const linked = withLink(withStorageOrigin(resolved, origin), PULL_ZONE_LINK, obj, link);
      return withMarkerKey(linked, apiKey);
    },
    references: (obj) => references(obj, deps),
    idReferences: idReferencesOf,
    connectionSecret: OUTPUTS_SECRET,
    classifyError: (err: unknown): ClassifiedError =>
      classifyCdnError(err, { specPathForField: specPathForApiField }),
  };
}

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createPullZoneConfigKind;
