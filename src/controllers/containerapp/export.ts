/**
 * One application as a ContainerApp that adopts it by id (`spec.adoption.id`), built by
 * containerapp/reverse-mapping.ts. Variables whose name matches the secret pattern become
 * references to one Secret per application. The application's log forwarding becomes
 * `spec.logForwarding`; its token is never exported: when the platform has one, the block
 * names a Secret the user creates with the current token (`tokenSecretRef`), and the export
 * says so. Configurations are listed once for the whole account.
 */
import type { LogForwarding } from '../../cdn/security-types.js';
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
import { adoptionById } from '../shared/ownership-schema.js';
import { logForwardingSpecOf } from './log-forwarding.js';
import { CONTAINER_APP_NAMES } from './types.js';
import { specFromApp } from './reverse-mapping.js';
import { ENDPOINT_TYPE_NAMES } from './wire-enums.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Key of the exported log forwarding token Secret. */
export const LOG_TOKEN_KEY = 'token';

/** What one application export produced. */
export interface ContainerAppExport {
  object: ExportedObject;
  secrets: RequiredSecret[];
  /** Things the user should know about this application. */
  notes: string[];
  /** The Secret `logForwarding.tokenSecretRef` names, when the platform has a token. */
  logTokenSecret?: string;
}

/** The `logForwarding` block of an application and the token Secret it needs, if any. */
function exportLogForwarding(
  app: App,
  name: string,
  forwarding: LogForwarding | undefined,
  secretNames: NameAllocator,
): Pick<ContainerAppExport, 'secrets' | 'notes' | 'logTokenSecret'> & {
  block?: Record<string, unknown>;
} {
  if (!forwarding) return { secrets: [], notes: [] };
  // Only a token the platform shows is referenced: a Secret to fill for a token that may not
  // exist could only replace the platform's. Without the reference the token is not managed.
  const secretName =
    forwarding.tokenSet === true
      ? secretNames.allocate(`${name}-log-forwarding`, app.id ?? '', 'log-forwarding')
      : undefined;
  const ref = secretName ? { name: secretName, key: LOG_TOKEN_KEY } : undefined;
  const block = logForwardingSpecOf(forwarding, ref);
  if (!block) {
    const note = `ContainerApp ${name}: log forwarding left out: the platform's configuration lacks a member the spec requires (type, endpoint, port, format)`;
    return { secrets: [], notes: [note] };
  }
  const secrets: RequiredSecret[] = secretName
    ? [
        {
          name: secretName,
          type: 'Opaque',
          keys: [LOG_TOKEN_KEY],
          purpose: `ContainerApp ${name}: the log forwarding token (never exported); the current token keeps applying it write-free`,
          filledBy: 'user',
        },
      ]
    : [];
  return {
    block: { ...block },
    secrets,
    notes: [],
    ...(secretName ? { logTokenSecret: secretName } : {}),
  };
}

/**
 * A note per InternalIP endpoint: exported by its name alone, which keeps it on this
 * application, but the documented API cannot create one elsewhere (docs/containerapp.md).
 */
function internalIpNotes(app: App, name: string): string[] {
  return (app.containerTemplates ?? []).flatMap((t) =>
    (t.endpoints ?? [])
      .filter((e) => e.type === ENDPOINT_TYPE_NAMES.InternalIP)
      .map(
        (e) =>
          `ContainerApp ${name}: endpoint ${t.name}/${e.displayName} (InternalIP) exported by its name alone: the spec keeps it on this application, but the documented API cannot create one`,
      ),
  );
}

/** See the module comment. `name` is the object's (already unique) name. */
export function exportContainerApp(
  app: App,
  name: string,
  opts: ExportOptions,
  secretNames: NameAllocator,
  forwarding?: LogForwarding,
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
  const logs = exportLogForwarding(app, name, forwarding, secretNames);
  return {
    object: {
      kind: CONTAINER_APP_NAMES.kind,
      name,
      manifest: {
        ...typeMetaOf(CONTAINER_APP_NAMES),
        metadata: metadataOf(name, opts.namespace),
        spec: {
          ...adoptionById(app.id),
          ...opts.account,
          deletionPolicy: opts.deletionPolicy,
          ...spec,
          ...(logs.block ? { logForwarding: logs.block } : {}),
        },
      },
    },
    secrets: [...secrets, ...logs.secrets],
    notes: [...internalIpNotes(app, name), ...logs.notes],
    ...(logs.logTokenSecret ? { logTokenSecret: logs.logTokenSecret } : {}),
  };
}

/** Every application of the account, in ascending id order, each read once by id. */
export async function exportContainerApps(c: ExportContext): Promise<void> {
  const ids = (await c.client.listApps())
    .map((a) => a.id)
    .filter((id): id is string => typeof id === 'string')
    .sort();
  if (ids.length === 0) return;
  const forwarding = new Map(
    (await c.client.listLogForwarding())
      .filter((f) => typeof f.app === 'string')
      .map((f) => [f.app!, f]),
  );
  const names = new NameAllocator();
  let tokens = 0;
  for (const id of ids) {
    const app = await c.client.getApp(id);
    const name = names.allocate(app.name, app.id, 'app');
    const out = exportContainerApp(app, name, c.opts, c.secretNames, forwarding.get(id));
    c.result.objects.push(out.object);
    c.result.secrets.push(...out.secrets);
    c.result.notes.push(...out.notes);
    if (out.logTokenSecret) tokens++;
  }
  if (tokens > 0) {
    c.result.notes.push(
      'ContainerApp: log forwarding tokens are never exported; create each logForwarding.tokenSecretRef Secret with the current token before applying (with the same token, applying writes nothing)',
    );
  }
}

/** The kind's `cdnctl export` exporter, under its part's name (kit/kind-parts.ts). */
export const exporter: KindPart<'exporter'> = exportContainerApps;
