/**
 * The EdgeScript kind (`/compute/script`) on the kit (kit/crud-kind.ts): its fields
 * (fields.ts), its identity (script names are not unique: a create goes out under the
 * provisional name, a lost create is recovered only by it) and the hooks beyond plain CRUD:
 *
 * - `createBody`: the create carries the code (code.ts), so a new script needs no code call;
 * - `compare`: the code by digest, the variables (env.ts) and the publish policy (releases.ts)
 *   add their plan entries and their members of the update body (`Code`, `variables`,
 *   `publish`);
 * - `status`: the code's digest, the live release, the last releases, a standalone script's
 *   pull zone and hostname, the secrets' fingerprints (secrets.ts);
 * - `details`: the deployment key for the outputs Secret (deployment-key.ts).
 *
 * A record is the script read with its code, its live release and its releases (four reads,
 * nothing written), and its secrets while `spec.secrets` is set. An update sends only what
 * differs: the name (`POST /compute/script/{id}`), the variables (`PUT`/`DELETE
 * .../variables`), the secrets (`PUT`/`DELETE .../secrets`), the code (`POST .../code`), then a
 * publish (`POST .../publish[/{uuid}]`), and reads back.
 */
import type {
  EdgeScript as ScriptRecord,
  EdgeScriptPublish,
  EdgeScriptRelease,
  EdgeScriptVariableUpsert,
} from '../../cdn/edge-script-types.js';
import type { ConnectContext, FieldDiff, ManagedKind } from '../../runtime/types.js';
import type { Connection } from '../kit/connector.js';
import type { CrudResource } from '../kit/crud-external.js';
import { crudKind } from '../kit/crud-kind.js';
import type { FieldsDiff } from '../kit/fields.js';
import type { ControllerDeps } from '../shared/deps.js';
import { codeConfigMapReference, codeHashOf, readCode } from './code.js';
import {
  envConfigMapReferences,
  planVariables,
  wantedVariables,
  type VariablePlan,
} from './env.js';
import { DEPLOYMENT_KEY_SECRET, deploymentKeyDetails } from './deployment-key.js';
import { EDGE_SCRIPT_FIELDS as FIELDS, SCRIPT_TYPES } from './fields.js';
import { publishOf, releaseSummaries, type ReleaseState } from './releases.js';
import {
  compareSecrets,
  namedSecrets,
  secretReferences,
  sendSecrets,
  sentSecretStatus,
  wantedSecrets,
  type SecretPlan,
  type WantedSecret,
  type WithSecrets,
} from './secrets.js';
import { EDGE_SCRIPT_NAMES, type EdgeScript } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** A script as observe reads it: the record, its code, its live release and its releases. */
export type EdgeScriptState = ScriptRecord &
  ReleaseState &
  WithSecrets & { releases?: readonly EdgeScriptRelease[] };

type Client = Connection['client'];

/** The script `id` with its code and releases, and its secrets when managed (reads only). */
export async function readState(
  client: Client,
  id: number,
  signal: AbortSignal,
  withSecrets: boolean,
): Promise<EdgeScriptState> {
  const script = await client.getEdgeScript(id, { signal });
  const [code, active, releases, secrets] = await Promise.all([
    client.getEdgeScriptCode(id, { signal }),
    client.getActiveEdgeScriptRelease(id, { signal }),
    client.listEdgeScriptReleases(id, { signal }),
    withSecrets ? client.listEdgeScriptSecrets(id, { signal }) : undefined,
  ]);
  return { ...script, code: code.Code ?? null, active, releases, ...(secrets ? { secrets } : {}) };
}

/** The variable calls of an update (env.ts): upserts by name, then deletions. */
async function sendVariables(
  client: Client,
  id: number,
  plan: VariablePlan,
  signal: AbortSignal,
): Promise<void> {
  for (const v of plan.upsert) await client.upsertEdgeScriptVariable(id, v, { signal });
  for (const variableId of plan.remove)
    await client.deleteEdgeScriptVariable(id, variableId, { signal });
}

/**
 * The update's calls: the script's members, the variables, the secrets (before the code that
 * may read them), the code, then the publish.
 */
async function sendUpdate(
  client: Client,
  id: number,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<void> {
  const { Code: code, publish, variables, secrets, ...script } = body;
  if (Object.keys(script).length > 0) await client.updateEdgeScript(id, script, { signal });
  if (variables !== undefined) await sendVariables(client, id, variables as VariablePlan, signal);
  if (secrets !== undefined) await sendSecrets(client, id, secrets as SecretPlan, signal);
  if (typeof code === 'string') await client.setEdgeScriptCode(id, code, { signal });
  if (publish !== undefined)
    await client.publishEdgeScript(id, publish as EdgeScriptPublish, { signal });
}

/** The code and publish entries the field table cannot see. */
function compareCode(
  obj: EdgeScript,
  record: EdgeScriptState,
  diff: FieldsDiff,
  code: string,
): FieldsDiff {
  const wanted = codeHashOf(code);
  const diffs: FieldDiff[] = [...diff.diffs];
  const update: Record<string, unknown> = { ...diff.update };
  const live =
    record.code === null || record.code === undefined ? undefined : codeHashOf(record.code);
  if (live !== wanted) {
    diffs.push({ field: 'code', live: live ?? '<unset>', desired: wanted });
    update.Code = code;
  }
  const publish = publishOf(obj, record, wanted);
  if (publish) {
    diffs.push(publish.diff);
    update.publish = publish.publish;
  }
  return { ...diff, diffs, update };
}

/** The variable entries (env.ts); `wanted` undefined: not managed. */
function compareVariables(
  record: EdgeScriptState,
  diff: FieldsDiff,
  wanted: EdgeScriptVariableUpsert[] | undefined,
): FieldsDiff {
  if (wanted === undefined) return diff;
  const { plan, diffs } = planVariables(record.EdgeScriptVariables ?? [], wanted);
  if (diffs.length === 0) return diff;
  return { ...diff, diffs: [...diff.diffs, ...diffs], update: { ...diff.update, variables: plan } };
}

/** The pull zone and hostname of a standalone script (a middleware has neither of its own). */
function standaloneZoneOf(record: EdgeScriptState): Record<string, unknown> {
  if (record.ScriptType !== SCRIPT_TYPES.numbers[0]) return {};
  const zone = record.LinkedPullZones?.[0];
  const hostname = zone?.DefaultHostname ?? record.DefaultHostname;
  return {
    ...(zone?.Id !== undefined ? { pullZoneId: zone.Id } : {}),
    ...(hostname ? { hostname } : {}),
  };
}

/** The status members beyond the table; `sent`: the create's body, before any read. */
function statusOf(
  record: EdgeScriptState,
  sent?: Record<string, unknown>,
): Record<string, unknown> {
  const code = typeof record.code === 'string' ? record.code : sent?.Code;
  const live = record.active?.Uuid;
  return {
    ...(typeof code === 'string' ? { codeHash: codeHashOf(code) } : {}),
    ...(live ? { activeRelease: live } : {}),
    ...(record.releases ? { releases: releaseSummaries(record.releases) } : {}),
    ...standaloneZoneOf(record),
    ...sentSecretStatus(record, sent),
  };
}

/** What the hooks read of the namespace: ConfigMaps (code, env) and Secrets (secrets). */
type Reader = Pick<ConnectContext, 'readConfigMap'> & Partial<Pick<ConnectContext, 'readSecret'>>;

/**
 * The script of one connection (of `obj`: its secrets are read while it has `spec.secrets`);
 * without `ctx` (`cdnctl diff`) only inline code is read, and no Secret (secrets by name only).
 */
function resource(
  conn: Connection,
  obj: EdgeScript,
  ctx?: Reader,
): CrudResource<EdgeScript, EdgeScriptState> {
  const { client, account } = conn;
  const none = (): Promise<undefined> => Promise.resolve(undefined);
  const reader = { readConfigMap: ctx?.readConfigMap ?? none, readSecret: ctx?.readSecret ?? none };
  const code = (o: EdgeScript): Promise<string> => readCode(o, reader);
  const withSecrets = obj.spec?.secrets !== undefined;
  const secrets = async (o: EdgeScript): Promise<WantedSecret[] | undefined> =>
    ctx?.readSecret ? wantedSecrets(o, reader) : namedSecrets(o);
  return {
    idField: 'scriptId',
    identity: {
      what: 'edge script',
      claimType: EDGE_SCRIPT_NAMES.kind,
      names: EDGE_SCRIPT_NAMES.platformNames,
      nameOf: (obj) => obj.spec?.name ?? obj.metadata.name,
      read: (id, signal) => readState(client, Number(id), signal, withSecrets),
      // DNS scripts (type 0) are never this kind's; a match is read again with its code.
      search: (name, signal) =>
        client.listEdgeScripts(
          { type: [...SCRIPT_TYPES.numbers] as (1 | 2)[], search: name },
          { signal },
        ),
      summaries: true,
      idOf: (s) => String(s.Id),
      recordNameOf: (s) => s.Name ?? '',
      isGone: (s) => s.Deleted === true,
    },
    fields: FIELDS,
    nameApi: 'Name',
    account,
    api: {
      // The runtime observes the script in the same pass (rename, publish).
      create: async (body, signal) => client.addEdgeScript(body, { signal }),
      update: (id, body, signal) => sendUpdate(client, Number(id), body, signal),
      // A standalone script's pull zone is left in place (docs/edgescript.md): the platform's
      // `deleteLinkedPullZones` would also delete every zone that runs or fronts the script,
      // zones other objects manage among them, not only the one createPullZone made.
      remove: (id, signal) => client.deleteEdgeScript(Number(id), false, { signal }),
    },
    readBack: true,
    hooks: {
      // A missing Secret or key waits before anything is created, not after.
      createBody: async (o, body) => {
        await secrets(o);
        return { ...body, Code: await code(o) };
      },
      compare: async (o, record, diff) =>
        compareSecrets(
          o,
          record,
          compareVariables(
            record,
            compareCode(o, record, diff, await code(o)),
            await wantedVariables(o, reader),
          ),
          await secrets(o),
        ),
      status: (record, _obj, sent) => statusOf(record, sent),
      details: (record) =>
        deploymentKeyDetails(record, standaloneZoneOf(record).hostname as string | undefined),
    },
  };
}

/** Builds the EdgeScript ManagedKind. */
export function createEdgeScriptKind(deps: ControllerDeps): ManagedKind<EdgeScript> {
  return crudKind<EdgeScript, EdgeScriptState>(deps, {
    names: EDGE_SCRIPT_NAMES,
    idField: 'scriptId',
    fields: FIELDS,
    specPaths: {
      Code: 'spec.code',
      publish: 'spec.release',
      variables: 'spec.env',
      secrets: 'spec.secrets',
    },
    resource,
    references: (obj) => [
      ...codeConfigMapReference(obj),
      ...envConfigMapReferences(obj),
      ...secretReferences(obj),
    ],
    connectionSecret: DEPLOYMENT_KEY_SECRET,
  });
}

export { resource as edgeScriptResource };
export type { EdgeScript } from './types.js';

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createEdgeScriptKind;
