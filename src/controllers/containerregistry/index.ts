/**
 * The ContainerRegistry kind (`/mc/registries`) on the kit (kit/crud-kind.ts): its fields
 * (fields.ts), its identity (display names are not unique: a create goes out under the
 * provisional name, a lost create is recovered only by it) and the hooks beyond plain CRUD:
 * the platform's public registries are refused (`PlatformManaged`); the create sends the
 * credentials (credentials.ts); the comparison adds the user name and a rotated password and
 * shows the fingerprint; an update is one replace (`PUT`: display name and type always, the
 * credentials only when they differ), then a read. The password is read when a hook needs it
 * (never for a deletion) and leaves the hooks only in a request body.
 */
import { samePlatformName } from '../../cdn/platform-names.js';
import type {
  ContainerRegistry as RegistryRecord,
  ContainerRegistryRequest as Request,
} from '../../cdn/security-types.js';
import { TerminalError } from '../../runtime/errors.js';
import type { ConnectContext, ManagedKind } from '../../runtime/types.js';
import type { Connection } from '../kit/connector.js';
import type { CrudResource } from '../kit/crud-external.js';
import { crudKind } from '../kit/crud-kind.js';
import { createBody } from '../kit/fields.js';
import type { ControllerDeps } from '../shared/deps.js';
import { CONTAINER_REGISTRY_FIELDS as FIELDS } from './fields.js';
import {
  credentialDiffs,
  passwordFingerprint,
  passwordSecretReference,
  readPassword,
  sendsCredentials,
  sentFingerprint,
} from './credentials.js';
import { CONTAINER_REGISTRY_NAMES, type ContainerRegistry } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Reason when the spec names one of the platform's public registries. */
export const PlatformManaged = 'PlatformManaged';
/**
 * The registry of one connection. Without `ctx` (`cdnctl diff`) the password is never read:
 * a manifest records no fingerprint, so no password difference is reported.
 */
function resource(
  conn: Connection,
  _obj: ContainerRegistry,
  ctx?: Pick<ConnectContext, 'readSecret'>,
): CrudResource<ContainerRegistry, RegistryRecord> {
  const { client, account } = conn;
  const password = (obj: ContainerRegistry): Promise<string> =>
    ctx ? readPassword(obj, ctx) : Promise.resolve('');
  const credentials = async (obj: ContainerRegistry): Promise<Request['passwordCredentials']> => ({
    userName: obj.spec?.username ?? '',
    password: await password(obj),
  });
  return {
    idField: 'registryId',
    identity: {
      what: 'container registry',
      claimType: CONTAINER_REGISTRY_NAMES.kind,
      names: CONTAINER_REGISTRY_NAMES.platformNames,
      nameOf: (obj) => obj.spec?.name ?? obj.metadata.name,
      read: (id, signal) => client.getRegistry(Number(id), { signal }),
      // The platform's public registries are never ours, nor adoptable by name.
      search: async (_name, signal) =>
        (await client.listRegistries({ signal })).filter((r) => r.isPlatformManaged !== true),
      idOf: (r) => String(r.id),
      recordNameOf: (r) => r.displayName,
      sameName: (live, wanted) => samePlatformName('containerRegistry', live, wanted),
    },
    fields: FIELDS,
    nameApi: 'displayName',
    account,
    api: {
      // The answer is the id only: the runtime observes the registry in the same pass.
      create: async (body, signal) => ({
        id: await client.addRegistry(body as Request, { signal }),
      }),
      update: (id, body, signal) => client.replaceRegistry(Number(id), body as Request, { signal }),
      remove: (id, signal) => client.deleteRegistry(Number(id), { signal }),
    },
    hooks: {
      admit: (_obj, record) => {
        if (record.isPlatformManaged !== true) return;
        throw new TerminalError(
          PlatformManaged,
          `cannot manage container registry ${record.id}: it is one of the platform's public registries; name it by id in a ContainerApp instead`,
        );
      },
      createBody: async (obj, body) => ({ ...body, passwordCredentials: await credentials(obj) }),
      compare: async (obj, record, diff) => {
        const current = passwordFingerprint(obj.metadata.uid, await password(obj));
        const applied = obj.status?.passwordFingerprint;
        const diffs = [...diff.diffs, ...credentialDiffs(obj, record, { applied, current })];
        // Adopted: the Secret's value is taken as the live password (credentials.ts).
        return { ...diff, diffs, status: { passwordFingerprint: applied ?? current } };
      },
      // A replace: every member again, the credentials only when they differ.
      updateBody: async (obj, seen) => {
        if (seen.diff.diffs.length === 0) return {};
        const body = createBody(FIELDS, obj);
        if (!sendsCredentials(seen.diff.diffs)) return body;
        return { ...body, passwordCredentials: await credentials(obj) };
      },
      status: (record, obj, sent) => ({
        ...(record.hostName !== undefined ? { hostname: record.hostName } : {}),
        ...sentFingerprint(obj, sent),
      }),
    },
  };
}

/** Builds the ContainerRegistry ManagedKind. */
export function createContainerRegistryKind(deps: ControllerDeps): ManagedKind<ContainerRegistry> {
  return crudKind<ContainerRegistry, RegistryRecord>(deps, {
    names: CONTAINER_REGISTRY_NAMES,
    idField: 'registryId',
    fields: FIELDS,
    specPaths: {
      'passwordCredentials.userName': 'spec.username',
      'passwordCredentials.password': 'spec.passwordSecretRef',
    },
    resource,
    references: passwordSecretReference,
  });
}

export { resource as containerRegistryResource };
export type { ContainerRegistry } from './types.js';

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createContainerRegistryKind;
