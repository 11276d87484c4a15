/**
 * `cdnctl export`: every registry of the account but the platform's public ones, in ascending
 * id order, as a ContainerRegistry that adopts it by id (`spec.adoption.id`): every field of the
 * table the platform returns (fields.ts) and the type. The password is never exported (the
 * platform never returns it): the manifest names a Secret the user creates with the registry's
 * current password (`passwordSecretRef`), and the export says so.
 *
 * The read model has no registry type, so it is taken from the host the platform reports
 * (TYPES_BY_HOST); a registry on another host is left out with a note.
 */
import type { ContainerRegistry as RegistryRecord } from '../../cdn/security-types.js';
import type { REGISTRY_TYPE_NAMES } from '../containerapp/wire-enums.js';
import { specOfRecord } from '../kit/fields.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator } from '../shared/export-names.js';
import { metadataOf, type ExportContext } from '../shared/manifest-export.js';
import { adoptionById } from '../shared/ownership-schema.js';
import { CONTAINER_REGISTRY_FIELDS } from './fields.js';
import { CONTAINER_REGISTRY_NAMES } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** A registry type as the spec names it. */
type RegistryType = keyof typeof REGISTRY_TYPE_NAMES;

/** Registry hosts and the registry type each stands for. */
const TYPES_BY_HOST: Readonly<Record<string, RegistryType>> = {
  'docker.io': 'DockerHub',
  'ghcr.io': 'GitHub',
  'registry.bunny.net': 'BunnyRegistry',
};

/** The object `name` adopting `registry` of `type`, and the password Secret it needs. */
function exportOne(
  c: ExportContext,
  registry: RegistryRecord,
  type: RegistryType,
  name: string,
): void {
  const id = Number(registry.id);
  const secretName = c.secretNames.allocate(`${name}-registry-password`, id, 'registry');
  const spec = {
    ...adoptionById(registry.id),
    // The platform never returns the type; the user name is required even when it has none.
    type,
    username: '',
    ...specOfRecord(CONTAINER_REGISTRY_FIELDS, registry),
    passwordSecretRef: { name: secretName, key: 'password' },
    ...c.opts.account,
    deletionPolicy: c.opts.deletionPolicy,
  };
  const { kind } = CONTAINER_REGISTRY_NAMES;
  const metadata = metadataOf(name, c.opts.namespace);
  c.result.objects.push({
    kind,
    name,
    manifest: { ...typeMetaOf(CONTAINER_REGISTRY_NAMES), metadata, spec },
  });
  c.result.secrets.push({
    name: secretName,
    type: 'Opaque',
    keys: ['password'],
    purpose: `ContainerRegistry ${name}: the registry's current password (never exported: the platform does not return it)`,
    filledBy: 'user',
  });
}

/** See the module comment. */
export const exporter: KindPart<'exporter'> = async (c: ExportContext): Promise<void> => {
  const own = (await c.client.listRegistries()).filter((r) => r.isPlatformManaged !== true);
  const names = new NameAllocator();
  for (const registry of own.sort((a, b) => Number(a.id) - Number(b.id))) {
    const type = TYPES_BY_HOST[registry.hostName ?? ''];
    if (!type) {
      c.result.notes.push(
        `ContainerRegistry: registry ${registry.id} left out: its host ${JSON.stringify(registry.hostName)} names no known registry type`,
      );
      continue;
    }
    const id = Number(registry.id);
    exportOne(
      c,
      registry,
      type,
      names.allocate(String(registry.displayName ?? ''), id, 'registry'),
    );
  }
  if (own.length > 0) {
    c.result.notes.push(
      'ContainerRegistry: passwords are never exported (the platform does not return them); create each passwordSecretRef Secret with the current password before applying',
    );
  }
};
