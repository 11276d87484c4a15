/**
 * One application as a ContainerApp that adopts it by id (`spec.appId`), built by
 * containerapp/reverse-mapping.ts. Variables whose name matches the secret pattern become
 * references to one Secret per application.
 */
import type { App } from '../../cdn/types.js';
import { specFromApp } from '../../controllers/containerapp/reverse-mapping.js';
import type { NameAllocator } from './names.js';
import {
  API_VERSION,
  metadataOf,
  type ExportOptions,
  type ExportedObject,
  type RequiredSecret,
} from './types.js';

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
      kind: 'ContainerApp',
      name,
      manifest: {
        apiVersion: API_VERSION,
        kind: 'ContainerApp',
        metadata: metadataOf(name, opts.namespace),
        spec: { appId: app.id, ...opts.account, deletionPolicy: opts.deletionPolicy, ...spec },
      },
    },
    secrets,
  };
}
