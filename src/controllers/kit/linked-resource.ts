/**
 * Linked resources, written once: an object that manages a platform resource another object of
 * its namespace brings with it (the pull zone the platform makes for an accelerated DNS record,
 * a container endpoint, a standalone edge script). The spec names the owner
 * (`spec.pullZoneFrom: {kind, name, ...}`), never an id; a kind opts in with {@link LinkRules},
 * whose owner table is data (kind -> where its status reports the id: kit/link-path.ts), so a
 * new owner is one row.
 *
 * The rule: **the id comes from the owner, and only from it.**
 *
 * - Connect reads the owner from the informer cache ({@link resolveLink}; same namespace, same
 *   account, the checks of every `*Ref`). While it is missing, being deleted or reports no id
 *   the object waits (Ready=False `ReferenceNotReady`, naming the owner); once the object has
 *   managed a zone (its status records an id) the same is the owner's zone gone
 *   (`rules.goneReason`, Synced=False and Ready=False), never a create. The reference watch
 *   re-enqueues the object when the owner changes; a new id the owner reports (the zone made
 *   again) is followed, and a gone object recovers when the owner reports one again.
 * - The external client ({@link withLink}) observes and updates the owner's id, claims it (one
 *   managing object per linked resource: a second is refused `AlreadyManaged`), never creates
 *   (a zone that is gone is `goneReason`) and never deletes: deleting the object releases the
 *   resource to its owner, whatever `spec.deletionPolicy` says (the CRD refuses `Delete`).
 * - For the runtime the linked id is an adopted one ({@link linkedIdOf} is the kind's
 *   `specExternalId` once an id is recorded): the default deletion policy is Orphan, and an
 *   adopted resource is never created again.
 */
import { TerminalError, WaitingError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type {
  ConnectContext,
  ExternalClient,
  ExternalContext,
  ManagedObject,
  Observation,
  ObjectReference,
} from '../../runtime/types.js';
import { typeMetaOf, type KindNames } from '../kind-names.js';
import { parseIntegerId } from '../shared/platform-id.js';
import { describeIdPath, readIdPath, type PathMatch } from './link-path.js';
import { assertSameAccount } from './ref-or-id.js';

/** One kind whose objects bring a resource the platform made for them (a row of the table). */
export interface LinkOwner {
  readonly kind: Pick<KindNames, 'kind' | 'family'>;
  /** Where the owner's status reports the id (kit/link-path.ts). */
  readonly idPath: string;
  /** What each link member the path selects by names (`endpoint`: the endpoint's displayName). */
  readonly members?: Readonly<Record<string, string>>;
  /** How the owner comes to have one, for the CRD (`with spec.accelerated: true`). */
  readonly when: string;
}

/** How a kind links: its spec and status fields, its claim, its owners and its words. */
export interface LinkRules {
  /** Spec field naming the owner (`pullZoneFrom`). */
  readonly field: string;
  /** Status field recording the managed resource's id (the kind's `idStatusField`). */
  readonly idStatusField: string;
  /** Status field naming the owner the id came from (`linkedFrom`). */
  readonly statusField: string;
  /** Claim type of the linked resources (one managing object each). */
  readonly claimType: string;
  /** The resource in words (`pull zone`). */
  readonly what: string;
  /** Synced reason once the owner no longer reports the resource, or it is gone. */
  readonly goneReason: string;
  readonly owners: readonly LinkOwner[];
}

/** `spec.<field>`: the owner's kind and name, and the members its path selects by. */
export type LinkSpec = { kind: string; name: string } & Record<string, string>;

/** A resolved link: the id and where it came from (what status shows). */
export interface Link {
  id: number;
  /** `kind`, `name` and the members the path matched (`container`, `endpoint`). */
  from: Record<string, string>;
}

/** The link the spec asks for, if any. */
export function linkSpecOf(obj: ManagedObject, rules: LinkRules): LinkSpec | undefined {
  const v = obj.spec?.[rules.field];
  if (typeof v !== 'object' || v === null) return undefined;
  const link = v as Partial<LinkSpec>;
  return typeof link.kind === 'string' && typeof link.name === 'string'
    ? (link as LinkSpec)
    : undefined;
}

/**
 * The id the runtime treats as given by the spec (its `specExternalId`): a linked object's
 * recorded id, so that it counts as adopted (never created again, Orphan by default).
 */
export function linkedIdOf(obj: ManagedObject, rules: LinkRules): string | undefined {
  if (!linkSpecOf(obj, rules)) return undefined;
  const id = parseIntegerId(obj.status?.[rules.idStatusField]);
  return id === undefined ? undefined : String(id);
}

function ownerOf(rules: LinkRules, link: LinkSpec): LinkOwner {
  const owner = rules.owners.find((o) => o.kind.kind === link.kind);
  if (owner) return owner;
  throw new TerminalError(
    SyncedReason.InvalidSpec,
    `cannot resolve spec.${rules.field}: kind ${JSON.stringify(link.kind)} does not bring a ${rules.what} (one of ${rules.owners.map((o) => o.kind.kind).join(', ')})`,
  );
}

/** The owner object the spec names, in the object's namespace (for the reference watch). */
export function linkReferenceOf(obj: ManagedObject, rules: LinkRules): ObjectReference | undefined {
  const link = linkSpecOf(obj, rules);
  const owner = link && rules.owners.find((o) => o.kind.kind === link.kind);
  if (!link || !owner) return undefined;
  return { ...typeMetaOf(owner.kind), namespace: obj.metadata.namespace, name: link.name };
}

/** The owner in messages: `ContainerApp ns/app endpoint public`. */
function ownerLabel(ref: ObjectReference, link: LinkSpec): string {
  const extra = Object.entries(link)
    .filter(([k]) => k !== 'kind' && k !== 'name')
    .map(([k, v]) => `${k} ${v}`);
  return [`${ref.kind} ${ref.namespace}/${ref.name}`, ...extra].join(' ');
}

/** Why the owner gives no id now, or undefined with the one id it reports. */
function readOwner(
  found: ManagedObject | undefined,
  owner: LinkOwner,
  link: LinkSpec,
  rules: LinkRules,
): { why: string } | { id: number; chosen: Readonly<Record<string, string>> } {
  if (!found) return { why: 'was not found' };
  if (isDeleting(found)) return { why: 'is being deleted' };
  const matches = readIdPath(found.status, owner.idPath, link);
  if (new Set(matches.map((m) => parseIntegerId(m.id))).size > 1)
    throw ambiguousError(rules, owner, link, matches);
  const first = matches[0];
  const id = parseIntegerId(first?.id);
  if (first === undefined || id === undefined)
    return { why: `reports no ${rules.what} (${describeIdPath(owner.idPath, link)})` };
  return { id, chosen: first.chosen };
}

/** Several ids match a link that left a member out (two containers with one endpoint name). */
function ambiguousError(
  rules: LinkRules,
  owner: LinkOwner,
  link: LinkSpec,
  matches: readonly PathMatch[],
): TerminalError {
  const missing = new Set(
    matches.flatMap((m) => Object.keys(m.chosen).filter((k) => link[k] === undefined)),
  );
  const fields = [...missing].map((k) => `spec.${rules.field}.${k}`).join(' and ');
  return new TerminalError(
    SyncedReason.InvalidSpec,
    `cannot resolve spec.${rules.field}: ${matches.length} ${rules.what}s match ${describeIdPath(owner.idPath, link)}; name the one meant with ${fields}`,
  );
}

/**
 * The id the owner reports, or undefined when the spec links nothing or the object is being
 * deleted (a deletion never depends on the owner). Throws a WaitingError (ReferenceNotReady)
 * while the owner has no id for an object that never had one, `rules.goneReason` once it had
 * one, InvalidSpec for an owner of another account or an ambiguous link.
 */
export function resolveLink(
  obj: ManagedObject,
  rules: LinkRules,
  getObject: ConnectContext['getObject'],
  account: string,
): Link | undefined {
  const link = linkSpecOf(obj, rules);
  if (!link || isDeleting(obj)) return undefined;
  const owner = ownerOf(rules, link);
  const ref = linkReferenceOf(obj, rules) as ObjectReference;
  const label = ownerLabel(ref, link);
  const found = getObject(ref);
  const read = readOwner(found, owner, link, rules);
  if ('why' in read) {
    const had = parseIntegerId(obj.status?.[rules.idStatusField]);
    if (had === undefined)
      throw new WaitingError(
        ReadyReason.ReferenceNotReady,
        `cannot resolve spec.${rules.field}: ${label} ${read.why}`,
      );
    throw goneError(rules, had, `${label} ${read.why}`);
  }
  assertSameAccount(obj, found as ManagedObject, `spec.${rules.field}: ${label}`, account);
  return { id: read.id, from: { kind: link.kind, name: link.name, ...read.chosen } };
}

/** The owner's resource is gone: Synced and Ready False (`unavailable`), never a create. */
function goneError(rules: LinkRules, id: number | string, why: string): TerminalError {
  return new TerminalError(
    rules.goneReason,
    `cannot manage ${rules.what} ${id}: ${why}; a linked ${rules.what} belongs to its owner and is never created or deleted by this object (restore the owner's ${rules.what}, or delete this object)`,
    true,
  );
}

function neverCreated(rules: LinkRules): TerminalError {
  return new TerminalError(
    rules.goneReason,
    `cannot create a ${rules.what} for spec.${rules.field}: a linked ${rules.what} is made and deleted by its owner only`,
  );
}

/** The context the wrapped client sees: the linked id, never a pending create. */
function linkedContext(ctx: ExternalContext, link: Link): ExternalContext {
  return { ...ctx, externalId: String(link.id), createPending: false };
}

/**
 * `inner` bound to the linked resource (see the module comment); `inner` itself for an object
 * that links nothing. `link` undefined for a linked object: it is being deleted, so nothing is
 * read and nothing deleted.
 */
export function withLink<T extends ManagedObject, S>(
  inner: ExternalClient<T, S>,
  rules: LinkRules,
  obj: T,
  link: Link | undefined,
): ExternalClient<T, S> {
  if (!linkSpecOf(obj, rules)) return inner;
  const recorded = linkedIdOf(obj, rules);
  const claims = link
    ? [{ type: rules.claimType, id: String(link.id), recorded: recorded === String(link.id) }]
    : [];
  return {
    get account() {
      return inner.account;
    },
    claims: [...(inner.claims ?? []), ...claims],
    observe: (o, ctx) => (link ? observeLinked(inner, rules, o, ctx, link) : released()),
    create: () => Promise.reject(neverCreated(rules)),
    update: (o, obs, ctx) => inner.update(o, obs, link ? linkedContext(ctx, link) : ctx),
    // Released to its owner: no platform call, whatever the deletion policy.
    delete: () => Promise.resolve(),
  };
}

function released<S>(): Promise<Observation<S>> {
  return Promise.resolve({ exists: false, upToDate: true, diff: [] });
}

async function observeLinked<T extends ManagedObject, S>(
  inner: ExternalClient<T, S>,
  rules: LinkRules,
  obj: T,
  ctx: ExternalContext,
  link: Link,
): Promise<Observation<S>> {
  const gone = goneError(rules, link.id, `it no longer exists on the platform`);
  let obs: Observation<S>;
  try {
    obs = await inner.observe(obj, linkedContext(ctx, link));
  } catch (err) {
    // An adopted resource that is gone is NotFound for the identity ladder; here it is gone.
    if (err instanceof TerminalError && err.reason === ReadyReason.NotFound) throw gone;
    throw err;
  }
  if (!obs.exists) throw gone;
  return {
    ...obs,
    externalId: String(link.id),
    status: { ...obs.status, [rules.statusField]: link.from },
  };
}
