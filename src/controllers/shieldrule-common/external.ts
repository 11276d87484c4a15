/**
 * The external client of a shield rule kind: the kit's CRUD client (kit/crud-external.ts) on one
 * shield zone with the family's field table. Rule names are not unique on the platform (a lost
 * create is recovered by its provisional name only). Before anything is read, a raw zone id
 * whose pull zone another object manages is refused (unmanaged-zone.ts); a rule of another zone
 * is refused before anything is written; a create the zone's plan refuses (403) is
 * {@link PlanNotSufficientError}, retried slowly; an update sends the configuration whole.
 */
import { isShieldPlanRefusal } from '../../cdn/shield-rules.js';
import { TerminalError } from '../../runtime/errors.js';
import { CrudExternal, type CrudResource } from '../kit/crud-external.js';
import type { IdentityRules } from '../kit/identity.js';
import { wholeConfiguration } from './configuration.js';
import type { RuleApi, RuleFamily } from './family.js';
import { itemNameOf } from './rule-claims.js';
import type { RuleRecord } from './types.js';
import type { RuleObject } from './zone.js';
import { checkUnmanagedZone, type PullZoneOf } from './unmanaged-zone.js';

/** Reason when an adopted rule lives on another shield zone than the spec names. */
export const ZoneMismatch = 'ZoneMismatch';
export { ReferenceNotAllowed } from './unmanaged-zone.js';

/** The zone's plan does not allow one more rule of the family (the platform answered 403). */
export class PlanNotSufficientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanNotSufficientError';
  }
}

/** What an external client is bound to. */
export interface RuleExternalOptions {
  family: RuleFamily;
  api: RuleApi;
  /** Account fingerprint (claims conflict only within one account). */
  account: string;
  /** The rule's shield zone; undefined only while deleting with the zone unknown. */
  shieldZoneId: number | undefined;
  /**
   * The pull zone a shield zone protects (one GET), for the ownership check of a raw
   * `spec.shieldZoneId` that no ShieldPolicy manages. Absent (cdnctl diff): not checked.
   */
  pullZoneOf?: PullZoneOf;
}

/** How the rules of a family are found: by id, else by name on the zone (not unique). */
export function ruleIdentity(o: RuleExternalOptions): IdentityRules<RuleRecord, RuleObject> {
  return {
    what: o.family.what,
    claimType: o.family.names.kind,
    names: 'shared',
    specIdField: 'ruleId',
    nameOf: itemNameOf,
    read: (id, signal) => o.api.get(Number(id), { signal }),
    // Without the zone (deleting, zone unknown) there is nothing to search.
    search: (_name, signal) =>
      o.shieldZoneId === undefined ? Promise.resolve([]) : o.api.list(o.shieldZoneId, { signal }),
    idOf: (r) => String(r.id),
    recordNameOf: (r) => r.ruleName,
  };
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
  const fields = o.family.members;
  return {
    idField: 'ruleId',
    identity: ruleIdentity(o),
    fields,
    nameApi: 'ruleName',
    account: o.account,
    api: {
      create: (body, signal) => createOnZone(o, body, signal),
      update: (id, patch, signal) => o.api.update(Number(id), patch, { signal }),
      remove: (id, signal) => o.api.delete(Number(id), { signal }),
    },
    hooks: {
      check: (obj, ctx) => checkUnmanagedZone(obj, o.shieldZoneId, o.pullZoneOf, ctx),
      admit: (_obj, record) => checkZone(o, record),
      compare: (obj, record, diff) =>
        Promise.resolve(wholeConfiguration(fields, obj, record, diff)),
      status: (r) => (r.shieldZoneId !== undefined ? { shieldZoneId: r.shieldZoneId } : {}),
    },
  };
}

/** See the module comment. */
export class RuleExternal extends CrudExternal<RuleObject, RuleRecord> {
  constructor(opts: RuleExternalOptions) {
    super(ruleResource(opts));
  }
}
