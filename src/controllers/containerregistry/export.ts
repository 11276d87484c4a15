/**
 * One container registry as a ContainerRegistry that adopts it by id (`spec.registryId`). The
 * password is never exported (the platform never returns it): the manifest names a Secret the
 * user creates with the registry's current password (`passwordSecretRef`), and the export says
 * so. The platform's public registries are left out.
 *
 * The read model has no registry type, so it is taken from the host the platform reports
 * (REGISTRY_TYPES_BY_HOST); a registry on another host is left out with a note.
 */
import type { ContainerRegistry as RegistryRecord } from '../../cdn/security-types.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
  type RequiredSecret,
} from '../shared/manifest-export.js';
import { CONTAINER_REGISTRY_NAMES, type RegistryTypeName } from './types.js';

/** Registry hosts and the registry type each stands for. */
export const REGISTRY_TYPES_BY_HOST: Readonly<Record<string, RegistryTypeName>> = {
  'docker.io': 'dockerHub',
  'ghcr.io': 'gitHub',
  'registry.bunny.net': 'bunnyRegistry',
};

/** Key of the exported password Secret. */
export const PASSWORD_KEY = 'password';

/** What one registry export produced. */
export interface RegistryExport {
  object: ExportedObject;
  secret: RequiredSecret;
}

/** See the module comment. `name` is the object's (already unique) name; `type` its type. */
export function exportContainerRegistry(
  registry: RegistryRecord,
  type: RegistryTypeName,
  name: string,
  opts: ExportOptions,
  secretNames: NameAllocator,
): RegistryExport {
  const secretName = secretNames.allocate(
    `${name}-registry-password`,
    Number(registry.id),
    'registry',
  );
  const spec = {
    registryId: registry.id,
    displayName: registry.displayName,
    type,
    username: registry.userName ?? '',
    passwordSecretRef: { name: secretName, key: PASSWORD_KEY },
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
  };
  return {
    object: {
      kind: CONTAINER_REGISTRY_NAMES.kind,
      name,
      manifest: {
        ...typeMetaOf(CONTAINER_REGISTRY_NAMES),
        metadata: metadataOf(name, opts.namespace),
        spec,
      },
    },
    secret: {
      name: secretName,
      type: 'Opaque',
      keys: [PASSWORD_KEY],
      purpose: `ContainerRegistry ${name}: the registry's current password (never exported: the platform does not return it)`,
      filledBy: 'user',
    },
  };
}

const byId = (a: RegistryRecord, b: RegistryRecord): number => Number(a.id) - Number(b.id);

/** Every registry of the account but the platform's public ones, in ascending id order. */
export async function exportContainerRegistries(c: ExportContext): Promise<void> {
  const own = (await c.client.listRegistries()).filter((r) => r.isPlatformManaged !== true);
  const names = new NameAllocator();
  for (const registry of own.sort(byId)) {
    const type = REGISTRY_TYPES_BY_HOST[registry.hostName ?? ''];
    if (!type) {
      c.result.notes.push(
        `ContainerRegistry: registry ${registry.id} left out: its host ${JSON.stringify(registry.hostName)} names no known registry type`,
      );
      continue;
    }
    const name = names.allocate(
      String(registry.displayName ?? ''),
      Number(registry.id),
      'registry',
    );
    const out = exportContainerRegistry(registry, type, name, c.opts, c.secretNames);
    c.result.objects.push(out.object);
    c.result.secrets.push(out.secret);
  }
  if (own.length > 0) {
    c.result.notes.push(
      'ContainerRegistry: passwords are never exported (the platform does not return them); create each passwordSecretRef Secret with the current password before applying',
    );
  }
}
