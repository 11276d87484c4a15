/**
 * A custom access list of one shield zone and the zone's configuration of it, on the kit
 * (kit/crud-external.ts; fields.ts). Read through the zone's listing (configuration, plan limits)
 * and the list's own path (entries): a list of another zone is not found. Refused before any
 * read: a raw `spec.shieldZoneId` of a pull zone another object manages, an entry unfit for the
 * type; an adopted list of another type is TypeMismatch. Create is one `POST` within the plan's
 * limits (disabled, no action: the same pass's update configures it); an update sends the list
 * `PATCH` (name, content) and the configuration `PATCH` (`configuration.*`), each when needed.
 */
import type { CdnClient } from '../../cdn/client.js';
import type {
  AccessListConfiguration,
  AccessListDetails,
  AccessListsOverview,
  CustomAccessList,
  CustomAccessListCreate,
  CustomAccessListUpdate,
} from '../../cdn/security-types.js';
import { accessListEntries } from '../../cdn/shield-access-lists.js';
import { isShieldPlanRefusal } from '../../cdn/shield-rules.js';
import { TerminalError } from '../../runtime/errors.js';
import type { Connection } from '../kit/connector.js';
import type { CrudResource } from '../kit/crud-external.js';
import type { IdentityRules } from '../kit/identity.js';
import { readUnlessGone } from '../shared/not-found.js';
import { PlanNotSufficientError } from '../shieldrule-common/external.js';
import { itemNameOf } from '../shieldrule-common/rule-claims.js';
import { checkUnmanagedZone, type PullZoneOf } from '../shieldrule-common/unmanaged-zone.js';
import { checkEntries } from './entries.js';
import { ACCESS_LIST_FIELDS, TYPE } from './fields.js';
import { checkLimits } from './limits.js';
import { SHIELD_ACCESS_LIST_NAMES, type ShieldAccessList } from './types.js';

/** Reason when an adopted list holds another type of entries than the spec says. */
export const TypeMismatch = 'TypeMismatch';

/** A list, the zone's configuration of it and the zone's listing (not in a create's answer). */
export type AccessListRecord = CustomAccessList &
  AccessListConfiguration & { configurationId?: number; listing?: AccessListsOverview };

/** The custom lists of `zone` that `match` picks in its listing, each read by id (gone: absent). */
export async function readLists(
  client: CdnClient,
  zone: number | undefined,
  match: (l: AccessListDetails) => boolean,
  signal?: AbortSignal,
): Promise<AccessListRecord[]> {
  if (zone === undefined) return [];
  const listing = await client.listAccessLists(zone, { signal });
  const found = await Promise.all(
    (listing.customLists ?? []).filter(match).map(async (details) => {
      const list = await readUnlessGone(() =>
        client.getCustomAccessList(zone, details.listId, { signal }),
      );
      return list && { ...details, ...list, listing };
    }),
  );
  return found.filter((r) => r !== undefined);
}

/** How custom lists are found: in the zone's listing by id, else by name (not unique). */
function identityOf(
  client: CdnClient,
  zone: number | undefined,
): IdentityRules<AccessListRecord, ShieldAccessList> {
  return {
    what: 'access list',
    claimType: SHIELD_ACCESS_LIST_NAMES.kind,
    names: SHIELD_ACCESS_LIST_NAMES.platformNames,
    nameOf: itemNameOf,
    read: async (id, signal) =>
      (await readLists(client, zone, (l) => String(l.listId) === id, signal))[0],
    search: (name, signal) => readLists(client, zone, (l) => l.name === name, signal),
    idOf: (r) => String(r.id),
    recordNameOf: (r) => r.name,
  };
}

/** `call`; the platform's refusal for the zone's plan (403) is PlanNotSufficient. */
function withinPlan<R>(zone: number, call: () => Promise<R>): Promise<R> {
  return call().catch((err: unknown) => {
    if (!isShieldPlanRefusal(err)) throw err;
    throw new PlanNotSufficientError(
      `cannot write the access list on shield zone ${zone}: the zone's plan does not allow it (customListLimit, customEntryLimit); upgrade the plan or remove lists or entries. The platform said: ${(err as Error).message}`,
    );
  });
}

/** The type of a list cannot change: an adopted list of another type is refused. */
function checkType(obj: ShieldAccessList, list: AccessListRecord): void {
  const [type, live] = [obj.spec?.type, TYPE.fromWire(list.type)];
  if (list.type === undefined || live === type) return;
  throw new TerminalError(
    TypeMismatch,
    `cannot manage access list ${list.id}: it holds ${live ?? String(list.type)} entries and spec.type is ${type}; the platform cannot change a list's type (adopt a list of that type, or create a new one)`,
  );
}

/** The zone, which a write needs (unknown only while deleting). */
function known(zone: number | undefined, what: string): number {
  if (zone === undefined) throw new Error(`cannot ${what} access list: the shield zone is unknown`);
  return zone;
}

/** The list `PATCH` and the configuration `PATCH` of an update body, each only when needed. */
async function updateList(
  client: CdnClient,
  zone: number,
  body: CustomAccessListUpdate & { configuration?: AccessListConfiguration },
  record: AccessListRecord,
  signal: AbortSignal,
): Promise<AccessListRecord> {
  const { configuration, ...patch } = body;
  const { id, configurationId, listing = {} } = record;
  if (typeof patch.content === 'string')
    checkLimits(listing, zone, id, accessListEntries(patch.content).length);
  const list =
    Object.keys(patch).length > 0 &&
    (await withinPlan(zone, () => client.updateCustomAccessList(zone, id, patch, { signal })));
  const configured =
    configuration &&
    (await client.updateAccessListConfiguration(zone, Number(configurationId), configuration, {
      signal,
    }));
  return { ...record, ...list, ...configured };
}

/** The list of a connection on `zone` (unknown only while deleting); no `pullZoneOf` in a diff. */
export function accessListResource(
  { client, account }: Connection,
  zone: number | undefined,
  pullZoneOf?: PullZoneOf,
): CrudResource<ShieldAccessList, AccessListRecord> {
  return {
    idField: 'listId',
    identity: identityOf(client, zone),
    fields: ACCESS_LIST_FIELDS,
    nameApi: 'name',
    account,
    api: {
      create: async (body, signal) => {
        const at = known(zone, 'create');
        const entries = accessListEntries(body.content as string | undefined).length;
        checkLimits(await client.listAccessLists(at, { signal }), at, undefined, entries);
        const create = body as CustomAccessListCreate;
        return withinPlan(at, () => client.createCustomAccessList(at, create, { signal }));
      },
      update: (_id, body, signal, record) =>
        updateList(client, known(zone, 'update'), body, record, signal),
      // Neither the ShieldPolicy nor status names the zone any more: it cannot be reached.
      remove: async (id, signal) =>
        zone === undefined
          ? 'its shield zone is unknown'
          : client.deleteCustomAccessList(zone, Number(id), { signal }),
    },
    hooks: {
      precheck: async (obj, ctx) => {
        await checkUnmanagedZone(obj, zone, pullZoneOf, ctx);
        checkEntries(obj.spec?.type ?? '', obj.spec?.entries ?? []);
      },
      admit: checkType,
      status: (r) => ({
        ...(r.configurationId !== undefined ? { configurationId: r.configurationId } : {}),
        shieldZoneId: zone,
        ...(typeof r.entryCount === 'number' ? { entryCount: r.entryCount } : {}),
      }),
      // A new list is disabled with no action: in sync only when the spec wants exactly that.
      available: (obj, list) =>
        list.name === itemNameOf(obj) && obj.spec?.enabled === false && !obj.spec.action,
    },
  };
}
