/**
 * Identity: how every kind finds the one platform resource an object stands for. Written once
 * here; a kind gives only its {@link IdentityRules} (how to read by id and search by name).
 *
 * The ladder, in order (upjet calls such rules external-name strategies):
 *
 * 1. **By id** — the id the spec adopts (`spec.adoption.id`) or the status records is read. Gone is gone: while the
 *    object is deleted it is simply absent, and a resource the object created is created again;
 *    but an adopted resource (spec id, or adopted by name) never leads to a create: terminal
 *    `NotFound`.
 * 2. **Recover a lost create** — a create was sent and its answer lost (`ctx.createPending`).
 *    The resource is taken as ours only with proof that we made it: where the platform's names
 *    are unique, the name (the platform refuses a second one); where they are not, a provisional
 *    name only the operator could have chosen (`cdnop-` and the object's create token, see
 *    {@link createNameOf}), under which the kind creates and which the next update replaces
 *    with the real name. Without a token there is no proof: `CreateOutcomeUnknown`, neither
 *    adopted nor created again. This runs while the object is deleted too, so that a late
 *    resource is found and deleted rather than left behind.
 * 3. **Adopt by name** — only when the spec asks (`spec.adoption.policy: ByName`).
 * 4. Otherwise nothing is read: the runtime creates.
 *
 * A linked object (a kind's `spec.<field>From` naming the object whose platform resource it
 * manages) stands before the ladder: its id is the owner's, given as `ctx.externalId` to step 1,
 * and it never reaches step 4 (kit/linked-resource.ts).
 *
 * One rule for several matches at every step: refused (`AmbiguousName`, naming the
 * candidates), never "the first". Resources another object manages are never candidates of a
 * recovery; for adoption a single managed match is returned so that the runtime refuses it
 * with `AlreadyManaged`, naming its owner.
 */
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ownershipOf } from '../../runtime/claims-status.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type { ExternalContext, ManagedObject, SweepSource } from '../../runtime/types.js';
import type { PlatformNames } from '../kind-names.js';
import { ADOPT_BY_NAME, adoptionIdOf, adoptionPolicyOf } from '../shared/ownership-schema.js';
import { readUnlessGone } from '../shared/not-found.js';

/** Prefix of the provisional names of kinds whose platform names are not unique. */
export const PROVISIONAL_PREFIX = 'cdnop-';

/** How one kind's platform resources are read, searched and named. */
export interface IdentityRules<R, T extends ManagedObject = ManagedObject> {
  /** What one resource is called in messages (`container registry`). */
  readonly what: string;
  /** Claim type of the resource (claims.ts), usually the kind. */
  readonly claimType: string;
  /** How the platform names the resources: the kind's `platformNames` (kind-names.ts). */
  readonly names: PlatformNames;
  /** The platform name the object wants (`spec.displayName`, defaulting to metadata.name). */
  nameOf(obj: T): string | undefined;
  /** Reads one resource by id; the platform's "not found" may be thrown or answered undefined. */
  read(id: string, signal: AbortSignal): Promise<R | undefined>;
  /** Resources that may be named `name` (a search or a listing; exact match is done here). */
  search(name: string, signal: AbortSignal): Promise<readonly R[]>;
  /**
   * The search answers summaries (a listing without the members `read` answers): a resource
   * found by name is read again by id.
   */
  readonly summaries?: boolean;
  /** The platform id of a resource. */
  idOf(record: R): string;
  /** The platform name of a resource. */
  recordNameOf(record: R): string | null | undefined;
  /** How the platform compares names (default: exactly). */
  sameName?(live: string | null | undefined, wanted: string): boolean;
  /**
   * Adoption by name matches on more than the name (a DNS record: type, name and value);
   * replaces the name comparison of adoption when given.
   */
  matches?(record: R, obj: T): boolean;
  /**
   * Where a create carries its provisional name, when not in the name (a DNS record, whose
   * name is its content, carries it in its comment). Default: the name.
   */
  proofOf?(record: R): string | null | undefined;
  /** A resource the platform still lists but has deleted (e.g. a storage zone's `Deleted`). */
  isGone?(record: R): boolean;
  /**
   * The listing that may answer the read by id of a periodic pass (observe by pages: the
   * runtime sweeps it, `ctx.readOwn`); without it every read is by id.
   */
  readonly sweep?: SweepSource<R>;
}

/** The resource found and its id. */
export interface Located<R> {
  id: string;
  record: R;
}

/**
 * The resource `obj` stands for, or undefined when there is none (the runtime then creates,
 * or confirms a deletion). See the module comment for the ladder.
 */
export async function locate<R, T extends ManagedObject>(
  rules: IdentityRules<R, T>,
  obj: T,
  ctx: ExternalContext,
): Promise<Located<R> | undefined> {
  if (ctx.externalId !== undefined) return locateById(rules, obj, ctx.externalId, ctx.signal, ctx);
  const found = await locateByName(rules, obj, ctx);
  if (!found || rules.summaries !== true) return found;
  const record = await readRecord(rules, found.id, ctx.signal);
  return record === undefined ? undefined : { id: found.id, record };
}

/** Steps 2 and 3 of the ladder: the lost create, else adoption by name when asked. */
async function locateByName<R, T extends ManagedObject>(
  rules: IdentityRules<R, T>,
  obj: T,
  ctx: ExternalContext,
): Promise<Located<R> | undefined> {
  if (ctx.createPending) {
    const mine = await recoverLostCreate(rules, obj, ctx);
    if (mine) return mine;
  }
  if (isDeleting(obj) || adoptionPolicyOf(obj.spec) !== ADOPT_BY_NAME) return undefined;
  return adoptByName(rules, obj, ctx);
}

/** Reads `id`; a resource that is gone is undefined unless the object adopted it. */
export async function locateById<R>(
  rules: IdentityRules<R, never>,
  obj: ManagedObject,
  id: string,
  signal: AbortSignal,
  ctx?: Pick<ExternalContext, 'readOwn'>,
): Promise<Located<R> | undefined> {
  const byId = (): Promise<R | undefined> => readRecord(rules, id, signal);
  const { sweep } = rules;
  const read = await (sweep && ctx?.readOwn ? ctx.readOwn(sweep, id, byId) : byId());
  const record = read !== undefined && rules.isGone?.(read) === true ? undefined : read;
  if (record !== undefined) return { id, record };
  if (isDeleting(obj) || !isAdoptedBy(obj)) return undefined;
  throw new TerminalError(
    ReadyReason.NotFound,
    `cannot observe ${rules.what} ${id} (${adoptedFrom(obj)}): it does not exist, and an adopted resource is never created again`,
  );
}

/** The name a create sends: the provisional name where names are not unique. */
export function createNameOf<R, T extends ManagedObject>(
  rules: IdentityRules<R, T>,
  obj: T,
  ctx: Pick<ExternalContext, 'createToken'>,
): string | undefined {
  return (rules.names === 'shared' ? provisionalNameOf(ctx) : undefined) ?? rules.nameOf(obj);
}

/** True when `name` is a provisional name (a create of some object whose rename is pending). */
export function isProvisionalName(name: string | null | undefined): boolean {
  return typeof name === 'string' && /^cdnop-[0-9a-f]{16}$/.test(name);
}

/** The object's provisional name (see the module comment); undefined without a create token. */
export function provisionalNameOf(ctx: Pick<ExternalContext, 'createToken'>): string | undefined {
  return ctx.createToken === undefined ? undefined : `${PROVISIONAL_PREFIX}${ctx.createToken}`;
}

async function readRecord<R>(
  rules: IdentityRules<R, never>,
  id: string,
  signal: AbortSignal,
): Promise<R | undefined> {
  const record = await readUnlessGone(() => rules.read(id, signal));
  return record !== undefined && rules.isGone?.(record) !== true ? record : undefined;
}

function isAdoptedBy(obj: ManagedObject): boolean {
  return adoptionIdOf(obj.spec) !== undefined || ownershipOf(obj).adopted === true;
}

function adoptedFrom(obj: ManagedObject): string {
  return adoptionIdOf(obj.spec) !== undefined
    ? 'spec.adoption.id'
    : 'adopted by spec.adoption.policy ByName';
}

/** The resources `search(query)` finds that the platform has not deleted and `keep` accepts. */
async function searchLive<R>(
  rules: IdentityRules<R, never>,
  query: string,
  signal: AbortSignal,
  keep: (r: R) => boolean,
): Promise<R[]> {
  const found = await rules.search(query, signal);
  return found.filter((r) => keep(r) && rules.isGone?.(r) !== true);
}

/** Whether a resource is named exactly `name` (by the kind's own comparison, if it has one). */
function namedAs<R>(rules: IdentityRules<R, never>, name: string): (r: R) => boolean {
  return (r) => {
    const live = rules.recordNameOf(r);
    return rules.sameName ? rules.sameName(live, name) : live === name;
  };
}

/** Our own create whose answer was lost, found only with proof (see the module comment). */
async function recoverLostCreate<R, T extends ManagedObject>(
  rules: IdentityRules<R, T>,
  obj: T,
  ctx: ExternalContext,
): Promise<Located<R> | undefined> {
  if (rules.names === 'shared' && ctx.createToken === undefined) throw noProof(rules);
  const name = createNameOf(rules, obj, ctx);
  if (name === undefined) return undefined;
  // With shared names only the provisional-name carrier proves the resource is ours.
  const candidates =
    rules.names === 'shared' && rules.proofOf
      ? await searchLive(
          rules,
          rules.nameOf(obj) ?? name,
          ctx.signal,
          (r) => rules.proofOf?.(r) === name,
        )
      : await searchLive(rules, name, ctx.signal, namedAs(rules, name));
  const free = candidates.filter(
    (r) => ctx.claimedByOther?.(rules.claimType, rules.idOf(r)) !== true,
  );
  if (free.length > 1) throw ambiguous(rules, name, free, 'recover the lost create');
  const mine = free[0];
  return mine === undefined ? undefined : { id: rules.idOf(mine), record: mine };
}

/** `spec.adoption.policy: ByName`: the one resource of that name no other object manages. */
async function adoptByName<R, T extends ManagedObject>(
  rules: IdentityRules<R, T>,
  obj: T,
  ctx: ExternalContext,
): Promise<Located<R>> {
  const name = rules.nameOf(obj);
  if (name === undefined) throw notFoundByName(rules, '');
  // The kind's own rule matches with the object; without one, the name does.
  const matches = await searchLive(
    rules,
    name,
    ctx.signal,
    rules.matches ? (r) => rules.matches?.(r, obj) === true : namedAs(rules, name),
  );
  const free = matches.filter((r) => ctx.claimedByOther?.(rules.claimType, rules.idOf(r)) !== true);
  const pick = free.length > 0 ? free : matches;
  if (pick.length > 1) throw ambiguous(rules, name, pick, 'adopt it by name');
  const one = pick[0];
  if (one === undefined) throw notFoundByName(rules, name);
  // A managed one is returned alone: the runtime refuses it naming its owner (AlreadyManaged).
  return { id: rules.idOf(one), record: one };
}

function ambiguous<R>(
  rules: IdentityRules<R, never>,
  name: string,
  candidates: readonly R[],
  attempt: string,
): TerminalError {
  const ids = candidates.map((r) => rules.idOf(r)).join(', ');
  return new TerminalError(
    SyncedReason.AmbiguousName,
    `cannot ${attempt}: ${candidates.length} ${rules.what} resources match ${labelOf(rules, name)} (ids ${ids}) and none is picked; adopt one by id (spec.adoption.policy ById)`,
  );
}

function notFoundByName<R>(rules: IdentityRules<R, never>, name: string): TerminalError {
  return new TerminalError(
    ReadyReason.NotFound,
    `cannot adopt ${rules.what} ${labelOf(rules, name)} (spec.adoption.policy ByName): no ${rules.what} matches it`,
  );
}

/** A name in messages: quoted, unless the kind describes its match in words (`matches`). */
function labelOf<R>(rules: IdentityRules<R, never>, name: string): string {
  return rules.matches ? name : JSON.stringify(name);
}

function noProof<R>(rules: IdentityRules<R, never>): TerminalError {
  return new TerminalError(
    SyncedReason.CreateOutcomeUnknown,
    `cannot tell whether the earlier create of this ${rules.what} made it (its answer was lost, and ${rules.what} names are not unique, so a name is no proof): nothing is adopted or created; adopt the resource by id if it exists, or remove the create-pending annotation to create it`,
  );
}
