/**
 * One application as a ContainerApp that adopts it by id (`spec.appId`), built by
 * containerapp/reverse-mapping.ts. Variables whose name matches the secret pattern become
 * references to one Secret per application.
 */
import type { App } from '../../cdn/types.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
  type RequiredSecret,
} from '../shared/manifest-export.js';
import { CONTAINER_APP_NAMES } from './types.js';
import { specFromApp } from './reverse-mapping.js';

/** What one application export produced. */
export interface ContainerAppExport {
  object: ExportedObject;
  secrets: RequiredSecret[];
}

/** See the module comment. `name` is the object's (already unique) name. */
export function exportContainerApp(
  app: App,
  name: string,
  opts: ExportOptions,
  secretNames: NameAllocator,
): ContainerAppExport {
  const needsSecret = (app.containerTemplates ?? []).some((t) =>
    (t.environmentVariables ?? []).some((v) => opts.secretEnvPattern.test(v.name)),
  );
  const secretName = needsSecret ? secretNames.allocate(`${name}-env`, app.id, 'env') : '';
  const { spec, secretKeys } = specFromApp(app, {
    isSecret: (_container, variable) => opts.secretEnvPattern.test(variable),
    secretName,
  });
  const secrets: RequiredSecret[] = needsSecret
    ? [
        {
          name: secretName,
          type: 'Opaque',
          keys: secretKeys,
          purpose: `ContainerApp ${name}: environment variables ${secretKeys.join(', ')}`,
          filledBy: 'user',
        },
      ]
    : [];
  return {
    object: {
      kind: CONTAINER_APP_NAMES.kind,
      name,
      manifest: {
        ...typeMetaOf(CONTAINER_APP_NAMES),
        metadata: metadataOf(name, opts.namespace),
        spec: { appId: app.id, ...opts.account, deletionPolicy: opts.deletionPolicy, ...spec },
      },
    },
    secrets,
  };
}

/** Every application of the account, in ascending id order, each read once by id. */
export async function exportContainerApps(c: ExportContext): Promise<void> {
  const ids = (await c.client.listApps())
    .map((a) => a.id)
    .filter((id): id is string => typeof id === 'string')
    .sort();
  const names = new NameAllocator();
  for (const id of ids) {
    const app = await c.client.getApp(id);
    const name = names.allocate(app.name, app.id, 'app');
    const out = exportContainerApp(app, name, c.opts, c.secretNames);
    c.result.objects.push(out.object);
    c.result.secrets.push(...out.secrets);
  }
}
