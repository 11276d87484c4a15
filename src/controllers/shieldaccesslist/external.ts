/**
 * The external client of ShieldAccessList: one custom access list of one shield zone and its
 * configuration, bound to one account's client.
 *
 * - Observe is read-only: the zone's listing (one GET: the list's configuration and the plan's
 *   limits), then the list itself (one GET: its entries). The list is found in the listing by
 *   the kit's identity rules (kit/identity.ts): names are not unique, so adoption by name
 *   refuses several candidates and a lost create is recovered only by its provisional name.
 *   Lists are read through the zone's path, so a list id of another zone is simply not found.
 * - Create sends one `POST` under the provisional name (after checking the plan's limits in the
 *   listing); the list starts disabled with no action, so the update of the same pass renames
 *   it and sends the configuration `PATCH` when the spec wants it enabled or an action.
 * - Update sends the list `PATCH` (name, content) and the configuration `PATCH` (isEnabled,
 *   action), each only when something of it differs (diff.ts).
 * - Delete sends `DELETE` unless the deletion policy is Orphan.
 */
import { accessListContent } from '../../cdn/shield-access-lists.js';
import type {
  AccessListDetails,
  AccessListsOverview,
  CustomAccessList,
  CustomAccessListCreate,
} from '../../cdn/security-types.js';
import { isShieldPlanRefusal } from '../../cdn/shield-rules.js';
import type { CdnClient } from '../../cdn/client.js';
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import type {
  CreateResult,
  ExternalClient,
  ExternalContext,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import { createNameOf, isProvisionalName, locate, type IdentityRules } from '../kit/identity.js';
import { deleteIgnoringNotFound, readUnlessGone } from '../shared/not-found.js';
import { PlanNotSufficientError } from '../shieldrule-common/external.js';
import { fromWire } from '../shieldrule-common/enums.js';
import { checkUnmanagedZone, type PullZoneOf } from '../shieldrule-common/unmanaged-zone.js';
import { diffAccessList, type AccessListDiff } from './diff.js';
import { ACCESS_LIST_TYPE, NO_ACTION } from './enums.js';
import { checkCreateLimits, checkUpdateLimits } from './limits.js';
import { desiredAccessList, type DesiredAccessList } from './mapping.js';
import {
  SHIELD_ACCESS_LIST_NAMES,
  type ShieldAccessList,
  type ShieldAccessListStatus,
} from './types.js';

/** Reason when an adopted list holds another type of entries than the spec says. */
export const TypeMismatch = 'TypeMismatch';

/** The client calls the kind makes. */
export type AccessListCalls = Pick<
  CdnClient,
  | 'listAccessLists'
  | 'getCustomAccessList'
  | 'createCustomAccessList'
  | 'updateCustomAccessList'
  | 'deleteCustomAccessList'
  | 'updateAccessListConfiguration'
>;

/** What an external client is bound to. */
export interface AccessListExternalOptions {
  api: AccessListCalls;
  /** Account fingerprint (claims conflict only within one account). */
  account: string;
  /** The list's shield zone; undefined only while deleting with the zone unknown. */
  shieldZoneId: number | undefined;
  /** For the ownership check of a raw `spec.shieldZoneId` (absent in cdnctl diff). */
  pullZoneOf?: PullZoneOf;
}

/** The live state an observation saw, handed to update. */
export interface AccessListSeen {
  zone: number;
  overview: AccessListsOverview;
  details: AccessListDetails;
  want: DesiredAccessList;
  diff: AccessListDiff;
}

const WHAT = 'access list';

/** The status fields observed from the live list. */
export function accessListStatusOf(
  zone: number,
  details: AccessListDetails,
  list?: CustomAccessList,
): ShieldAccessListStatus {
  const name = list?.name ?? details.name;
  return {
    listId: details.listId,
    configurationId: details.configurationId,
    shieldZoneId: zone,
    ...(typeof name === 'string' ? { name } : {}),
    entryCount: list?.entryCount ?? details.entryCount,
  };
}

/** The list's platform name: `spec.name`, defaulting to `metadata.name`. */
function nameOf(obj: ShieldAccessList): string {
  return obj.spec?.name ?? obj.metadata.name;
}

/** How custom lists are found in a zone's listing: by id, else by name (not unique). */
function accessListIdentity(
  overview: AccessListsOverview | undefined,
): IdentityRules<AccessListDetails, ShieldAccessList> {
  const lists = overview?.customLists ?? [];
  return {
    what: WHAT,
    claimType: SHIELD_ACCESS_LIST_NAMES.kind,
    names: 'shared',
    specIdField: 'listId',
    nameOf,
    read: (id) => Promise.resolve(lists.find((l) => String(l.listId) === id)),
    search: () => Promise.resolve(lists),
    idOf: (l) => String(l.listId),
    recordNameOf: (l) => l.name,
  };
}

/** Body of the create: name, description (only here: the platform cannot change it), entries. */
function createBody(
  obj: ShieldAccessList,
  want: DesiredAccessList,
  ctx: ExternalContext,
): CustomAccessListCreate {
  return {
    // Under the provisional name (identity.ts): the update of the same pass sets the real one.
    name: createNameOf(accessListIdentity(undefined), obj, ctx) ?? nameOf(obj),
    ...(want.description !== undefined ? { description: want.description } : {}),
    type: want.type as CustomAccessListCreate['type'],
    content: accessListContent(want.entries),
  };
}

function planRefusal(err: unknown, zone: number): unknown {
  if (!isShieldPlanRefusal(err)) return err;
  return new PlanNotSufficientError(
    `cannot write the access list on shield zone ${zone}: the zone's plan does not allow it (customListLimit, customEntryLimit); upgrade the plan or remove lists or entries. The platform said: ${(err as Error).message}`,
  );
}

/** See the module comment. */
export class AccessListExternal implements ExternalClient<ShieldAccessList, AccessListSeen> {
  constructor(private readonly opts: AccessListExternalOptions) {}

  get account(): string {
    return this.opts.account;
  }

  async observe(obj: ShieldAccessList, ctx: ExternalContext): Promise<Observation<AccessListSeen>> {
    const zone = this.opts.shieldZoneId;
    await checkUnmanagedZone(obj, zone, this.opts.pullZoneOf, ctx);
    // Checked first: an entry of the wrong shape is refused before anything is written.
    const want = desiredAccessList(obj.spec ?? ({} as never), obj.metadata.name);
    if (zone === undefined) return { exists: false, upToDate: false, diff: [] };
    const overview = await this.opts.api.listAccessLists(zone, { signal: ctx.signal });
    const details = (await locate(accessListIdentity(overview), obj, ctx))?.record;
    if (!details) return { exists: false, upToDate: false, diff: [] };
    // Gone between the listing and this read: absent, like a list missing from the listing.
    const list = await readUnlessGone(() =>
      this.opts.api.getCustomAccessList(zone, details.listId, { signal: ctx.signal }),
    );
    if (!list) return { exists: false, upToDate: false, diff: [] };
    this.checkType(obj, want, list);
    const diff = diffAccessList(want, list, details);
    return {
      exists: true,
      externalId: String(details.listId),
      upToDate: diff.diffs.length === 0,
      diff: diff.diffs,
      status: { ...accessListStatusOf(zone, details, list) },
      seen: { zone, overview, details, want, diff },
    };
  }

  /** The type of a list cannot change: an adopted list of another type is refused. */
  private checkType(obj: ShieldAccessList, want: DesiredAccessList, list: CustomAccessList): void {
    if (isDeleting(obj) || list.type === undefined || list.type === want.type) return;
    throw new TerminalError(
      TypeMismatch,
      `cannot manage access list ${list.id}: it holds ${fromWire(ACCESS_LIST_TYPE, list.type) ?? String(list.type)} entries and spec.type is ${obj.spec?.type}; the platform cannot change a list's type (adopt a list of that type, or create a new one)`,
    );
  }

  async create(obj: ShieldAccessList, ctx: ExternalContext): Promise<CreateResult> {
    const spec = obj.spec ?? ({} as never);
    const zone = this.opts.shieldZoneId;
    if (zone === undefined)
      throw new Error('cannot create access list: the shield zone is unknown');
    const want = desiredAccessList(spec, obj.metadata.name);
    const overview = await this.opts.api.listAccessLists(zone, { signal: ctx.signal });
    checkCreateLimits(overview, zone, want.entries.length);
    let list: CustomAccessList;
    try {
      list = await this.opts.api.createCustomAccessList(zone, createBody(obj, want, ctx), {
        signal: ctx.signal,
      });
    } catch (err) {
      throw planRefusal(err, zone);
    }
    ctx.log.debug({ listId: list.id, shieldZoneId: zone }, 'Created access list');
    // A new list is disabled with no action: in sync only when the spec wants exactly that.
    return {
      externalId: String(list.id),
      status: {
        listId: list.id,
        shieldZoneId: zone,
        ...(typeof list.name === 'string' ? { name: list.name } : {}),
        ...(typeof list.entryCount === 'number' ? { entryCount: list.entryCount } : {}),
      },
      available:
        list.name === nameOf(obj) && !want.enabled && (want.action ?? NO_ACTION) === NO_ACTION,
      // The rename that follows in this pass removes the proof: the id goes to status first.
      recordFirst: isProvisionalName(list.name),
    };
  }

  async update(
    _obj: ShieldAccessList,
    observation: Observation<AccessListSeen>,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = observation.seen;
    if (!seen)
      throw new Error('cannot update access list: observation was not made by this client');
    const { zone, details, diff } = seen;
    let list: CustomAccessList | undefined;
    if (Object.keys(diff.listPatch).length > 0) {
      if (diff.listPatch.content !== undefined)
        checkUpdateLimits(seen.overview, zone, details.listId, seen.want.entries.length);
      try {
        list = await this.opts.api.updateCustomAccessList(zone, details.listId, diff.listPatch, {
          signal: ctx.signal,
        });
      } catch (err) {
        throw planRefusal(err, zone);
      }
    }
    let configured = details;
    if (Object.keys(diff.configPatch).length > 0) {
      const answer = await this.opts.api.updateAccessListConfiguration(
        zone,
        details.configurationId,
        diff.configPatch,
        { signal: ctx.signal },
      );
      configured = { ...details, ...answer } as AccessListDetails;
    }
    return { status: { ...accessListStatusOf(zone, configured, list) } };
  }

  async delete(obj: ShieldAccessList, ctx: ExternalContext): Promise<void> {
    if (!ctx.externalId || obj.spec?.deletionPolicy === 'Orphan') return;
    const zone = this.opts.shieldZoneId;
    const id = Number(ctx.externalId);
    if (zone === undefined) {
      // Neither the ShieldPolicy nor status names the zone any more: the list cannot be reached.
      ctx.log.warn({ listId: id }, 'Cannot delete access list: its shield zone is unknown');
      return;
    }
    const deleted = await deleteIgnoringNotFound(() =>
      this.opts.api.deleteCustomAccessList(zone, id, { signal: ctx.signal }),
    );
    if (deleted) ctx.log.info({ listId: id, shieldZoneId: zone }, 'Deleted access list');
  }
}
