/**
 * The platform side of a shield rule kind: the kit's CRUD resource (kit/crud-external.ts) on one
 * shield zone with the family's field table. Rule names are not unique (a lost create is
 * recovered by its provisional name only); a raw zone id whose pull zone another object manages
 * is refused before anything is read (unmanaged-zone.ts), a rule of another zone before anything
 * is written; a create the zone's plan refuses (403) is {@link PlanNotSufficientError}, retried
 * slowly; the platform binds a configuration whole, so an update sends it whole.
 */
import { isShieldPlanRefusal } from '../../cdn/shield-rules.js';
import { TerminalError } from '../../runtime/errors.js';
import type { CrudResource } from '../kit/crud-external.js';
import { wholeNested } from '../kit/nested.js';
import type { RuleApi, RuleFamily } from './family.js';
import { CONFIGURATION } from './fields.js';
import { itemNameOf } from './rule-claims.js';
import type { RuleRecord } from './types.js';
import type { RuleObject } from './zone.js';
import { checkUnmanagedZone, type PullZoneOf } from './unmanaged-zone.js';

/** Reason when an adopted rule lives on another shield zone than the spec names. */
export const ZoneMismatch = 'ZoneMismatch';

/** The zone's plan does not allow one more rule of the family (the platform answered 403). */
export class PlanNotSufficientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanNotSufficientError';
  }
}

/** What a rule resource is bound to. */
export interface RuleExternalOptions {
  family: RuleFamily;
  api: RuleApi;
  account: string;
  /** The rule's shield zone; undefined only while deleting with the zone unknown. */
  shieldZoneId: number | undefined;
  /** The pull zone of a shield zone (unmanaged-zone.ts); absent (cdnctl diff): not checked. */
  pullZoneOf?: PullZoneOf;
}

/** A rule of another shield zone is never changed from this object. */
function checkZone(o: RuleExternalOptions, record: RuleRecord): void {
  const zone = o.shieldZoneId;
  if (zone === undefined || record.shieldZoneId === zone) return;
  throw new TerminalError(
    ZoneMismatch,
    `cannot manage ${o.family.what} ${record.id}: it belongs to shield zone ${record.shieldZoneId}, not to shield zone ${zone} that the spec names; nothing is changed`,
  );
}

/** One `POST` of `body` on the zone; the plan's refusal as {@link PlanNotSufficientError}. */
async function createOnZone(
  o: RuleExternalOptions,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<RuleRecord> {
  const { what, limitField } = o.family;
  const zone = o.shieldZoneId;
  if (zone === undefined) throw new Error(`cannot create ${what}: the shield zone is unknown`);
  try {
    return await o.api.create({ ...body, shieldZoneId: zone }, { signal });
  } catch (err) {
    if (!isShieldPlanRefusal(err)) throw err;
    throw new PlanNotSufficientError(
      `cannot create ${what} on shield zone ${zone}: the zone's plan does not allow another one (${limitField}); upgrade the plan or remove a rule. The platform said: ${(err as Error).message}`,
    );
  }
}

/** The kit resource of the rules of `o.family` on one zone (see the module comment). */
export function ruleResource(o: RuleExternalOptions): CrudResource<RuleObject, RuleRecord> {
  const { family, api, shieldZoneId: zone } = o;
  return {
    idField: 'ruleId',
    identity: {
      what: family.what,
      claimType: family.names.kind,
      names: family.names.platformNames,
      nameOf: itemNameOf,
      read: (id, signal) => api.get(Number(id), { signal }),
      // Without the zone (deleting, zone unknown) there is nothing to search.
      search: (_name, signal) =>
        zone === undefined ? Promise.resolve([]) : api.list(zone, { signal }),
      idOf: (r) => String(r.id),
      recordNameOf: (r) => r.ruleName,
    },
    fields: family.members,
    nameApi: 'ruleName',
    account: o.account,
    api: {
      create: (body, signal) => createOnZone(o, body, signal),
      update: (id, patch, signal) => api.update(Number(id), patch, { signal }),
      remove: (id, signal) => api.delete(Number(id), { signal }),
    },
    hooks: {
      precheck: (obj, ctx) => checkUnmanagedZone(obj, zone, o.pullZoneOf, ctx),
      admit: (_obj, record) => checkZone(o, record),
      compare: (obj, record, diff) =>
        Promise.resolve(
          wholeNested(family.members, CONFIGURATION, obj.spec ?? {}, record as never, diff),
        ),
      status: (r) => (r.shieldZoneId !== undefined ? { shieldZoneId: r.shieldZoneId } : {}),
    },
  };
}
