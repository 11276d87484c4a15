/**
 * The claim index: one owner per platform resource, across every namespace and kind.
 *
 * Every managed object claims the platform resources it manages (`ManagedKind.claimsOf`,
 * default: its recorded external id). The manager feeds the index from the informer caches
 * of all kinds (add/update/delete), so it is complete before the first worker starts and
 * needs no extra API call. When two objects claim one resource of one account, exactly one
 * wins, the same one on every replica and after every restart:
 *
 * 1. a claim recorded in status (the object created or adopted the resource) beats a claim
 *    only asked for in the spec: an older object cannot take over a resource by editing its spec;
 *    a claim only asked for in the spec of an object the operator refused for its spec (a
 *    reference into another namespace, an id or zone that does not exist) counts for nothing:
 *    a refused reference cannot squat the resources it names;
 * 2. then the older object (creationTimestamp);
 * 3. then uid, namespace and name as tie breaks.
 *
 * Claims whose account is unknown (objects from an older operator version, not yet reconciled)
 * conflict with every account: refusing too much is safe, sharing a resource is not.
 * Entries are removed when their object is deleted, so the index never outgrows the caches.
 */
import { isObserveOnly } from './management-policy.js';
import { flatString } from './flat-string.js';
import type { ClaimRef, ManagedObject } from './types.js';

/** An object that claims one platform resource. */
export interface Claimant {
  /** Kind of the claiming object (e.g. `PullZoneConfig`). */
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  creationTimestamp: string;
  /** Account of the claim; undefined when unknown (conflicts with every account). */
  account?: string;
  /** True when the claimant's status records the id. */
  recorded: boolean;
  /** The operator refused the claimant for its spec (see {@link isRefusedForSpec}). */
  refused?: true;
  /** The claim holds against other namespaces only (`ClaimRef.scope`). */
  scoped?: true;
  /**
   * An observe-only object (management-policy.ts): listed so that it is told when an owner of
   * the resource comes or goes, but never an owner, a rival or a claimant others must spare.
   */
  observer?: true;
}

/** The kind/namespace/name of an object in the index. */
export interface ClaimantRef {
  kind: string;
  namespace: string;
  name: string;
}

const SEP = '\u0000';

// Flat strings: both keys live as long as the object (flat-string.ts).
function claimKey(type: string, id: string): string {
  return flatString(`${type}${SEP}${id}`);
}

function objectKeyOf(ref: ClaimantRef): string {
  return `${ref.kind}${SEP}${ref.namespace}${SEP}${ref.name}`;
}

function claimantRefOf(key: string): ClaimantRef {
  const [kind = '', namespace = '', name = ''] = key.split(SEP);
  return { kind, namespace, name };
}

/** `own` with the connected claims whose key it lacks. */
function withConnected(
  own: readonly ClaimRef[],
  connected: readonly ClaimRef[] | undefined,
): readonly ClaimRef[] {
  if (!connected || connected.length === 0) return own;
  const keys = new Set(own.map((c) => claimKey(c.type, c.id)));
  return [...own, ...connected.filter((c) => !keys.has(claimKey(c.type, c.id)))];
}

function groupKeyOf(ref: ClaimantRef): string {
  return flatString(`${ref.kind}${SEP}${ref.namespace}`);
}

function timeOf(ts: string): number {
  const t = Date.parse(ts);
  // An object without a parseable creation time sorts last (it cannot prove it came first).
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Negative when `a` wins over `b` (see the module comment for the order). */
export function compareClaimants(a: Claimant, b: Claimant): number {
  if (a.recorded !== b.recorded) return a.recorded ? -1 : 1;
  const ta = timeOf(a.creationTimestamp);
  const tb = timeOf(b.creationTimestamp);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (
    compareStrings(a.uid, b.uid) ||
    compareStrings(a.namespace, b.namespace) ||
    compareStrings(a.name, b.name)
  );
}

/** True when claims made under these two accounts may name the same resource. */
export function accountsOverlap(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/** Synced reasons of an object refused for what its spec names (status: the operator's own). */
const SPEC_REFUSALS: ReadonlySet<string> = new Set(['ReferenceNotAllowed', 'NotFound']);

/**
 * True when the operator's last pass refused the object for what its spec names (Synced=False
 * ReferenceNotAllowed or NotFound): its spec-only claims then count for nothing. Only the
 * operator writes status, so a tenant cannot set this on another's object.
 */
export function isRefusedForSpec(obj: ManagedObject): boolean {
  const conditions = obj.status?.conditions;
  if (!Array.isArray(conditions)) return false;
  const synced = conditions.find((c) => c.type === 'Synced');
  return synced?.status === 'False' && SPEC_REFUSALS.has(synced.reason);
}

/** True when `c` holds its claim: recorded, or asked for by an object not refused for it. */
function holds(c: Claimant): boolean {
  if (c.observer === true) return false;
  return c.recorded || c.refused !== true;
}

/**
 * True when `other` may contend with `self` for one claim: another object, of an account that
 * may be `self`'s, holding its claim, and not kept apart by a namespace-scoped claim.
 */
function contends(other: Claimant, self: Claimant): boolean {
  if (sameClaimant(other, self) || !accountsOverlap(other.account, self.account)) return false;
  return holds(other) && !sameScope(other, self);
}

/** True when a namespace-scoped claim makes `a` and `b` no rivals (same namespace). */
function sameScope(a: Claimant, b: Claimant): boolean {
  return (a.scoped === true || b.scoped === true) && a.namespace === b.namespace;
}

/** The claimant entry of `obj` for one claim. */
export function claimantOf(
  kind: string,
  obj: ManagedObject,
  claim: ClaimRef,
  account: string | undefined,
): Claimant {
  const m = obj.metadata;
  const uid = m.uid ?? '';
  const creationTimestamp = m.creationTimestamp ?? '';
  const { namespace, name } = m;
  const { recorded } = claim;
  // Plain literals, not a spread: the index holds one per object, and a literal gets exactly
  // its fields in the object itself (no separate property store). Refused ones are rare.
  const c: Claimant =
    account !== undefined
      ? { kind, namespace, name, uid, creationTimestamp, account, recorded }
      : { kind, namespace, name, uid, creationTimestamp, recorded };
  if (!recorded && isRefusedForSpec(obj)) c.refused = true;
  if (claim.scope === 'namespace') c.scoped = true;
  if (isObserveOnly(obj)) c.observer = true;
  return c;
}

/**
 * One value or several: almost every resource has one claimant and every object one claim,
 * and a one-element array costs an array object and its backing store on top of the element.
 */
type OneOrMany<T> = T | T[];

function listOf<T>(v: OneOrMany<T> | undefined): readonly T[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

function packed<T>(list: T[]): OneOrMany<T> | undefined {
  // slice(): an array grown by push keeps spare capacity; a copy has none.
  if (list.length > 1) return list.slice();
  return list[0];
}

function sameClaimant(a: ClaimantRef, b: ClaimantRef): boolean {
  return a.kind === b.kind && a.namespace === b.namespace && a.name === b.name;
}

function sameEntry(a: Claimant | undefined, b: Claimant): boolean {
  return (
    a !== undefined &&
    a.uid === b.uid &&
    a.account === b.account &&
    a.recorded === b.recorded &&
    a.refused === b.refused &&
    a.scoped === b.scoped &&
    a.observer === b.observer &&
    a.creationTimestamp === b.creationTimestamp
  );
}

/** See the module comment. */
export class ClaimIndex {
  // A value or an array, not Maps/Sets, per claim and per object: almost every resource has
  // one claimant and every object one claim, and a one-entry Map costs several times that
  // (this index holds one entry per managed object; docs/runtime.md, Memory).
  readonly #byClaim = new Map<string, OneOrMany<Claimant>>();
  // Per kind and namespace (few), then keyed by the object's own name string: the key is the
  // copy the cached object already holds, not one more string per object.
  readonly #byObject = new Map<string, Map<string, OneOrMany<string>>>();
  /**
   * Claims known only once an object's client is connected (a DNS record's content, a target
   * resolved through a reference), per object key: entered by the reconciler after the object
   * passed admission, kept across the informer's updates, dropped with the object. Only the
   * few kinds with such claims hold an entry.
   */
  readonly #connected = new Map<string, readonly ClaimRef[]>();
  /**
   * Creates in flight, per claim key: the object whose create acts on the claim, until its
   * status records it (or the create failed). A second object's create on the same claim waits.
   */
  readonly #creating = new Map<string, string>();

  /**
   * Replaces the claims of `obj` (of kind `kind`). Returns the other claimants of every
   * claim that this object dropped or changed: a refused object may now win and must be
   * reconciled again.
   */
  set(
    kind: string,
    obj: ManagedObject,
    claims: readonly ClaimRef[],
    account: string | undefined,
  ): ClaimantRef[] {
    const self: ClaimantRef = { kind, namespace: obj.metadata.namespace, name: obj.metadata.name };
    claims = withConnected(claims, this.#connected.get(objectKeyOf(self)));
    const before = listOf(this.#byObject.get(groupKeyOf(self))?.get(self.name));
    const after: string[] = [];
    const touched = new Set<string>();
    for (const claim of claims) {
      const fresh = claimKey(claim.type, claim.id);
      // The copy already stored, when there is one: an update event then adds no string.
      const ckey = before.find((k) => k === fresh) ?? fresh;
      if (!after.includes(ckey)) after.push(ckey);
      if (this.#put(ckey, claimantOf(kind, obj, claim, account))) touched.add(ckey);
      // Recorded: the create that acted on the claim is done.
      if (claim.recorded && this.#creating.get(ckey) === objectKeyOf(self))
        this.#creating.delete(ckey);
    }
    for (const ckey of before) {
      if (after.includes(ckey)) continue;
      this.#drop(ckey, self);
      touched.add(ckey);
    }
    this.#setObjectClaims(self, packed(after));
    return this.#othersOf(touched, self);
  }

  /** Removes every claim of the object; returns the other claimants of those claims. */
  remove(kind: string, obj: ManagedObject): ClaimantRef[] {
    const self: ClaimantRef = { kind, namespace: obj.metadata.namespace, name: obj.metadata.name };
    this.#connected.delete(objectKeyOf(self));
    this.endCreate(self);
    return this.set(kind, obj, [], undefined);
  }

  /**
   * Enters the claims `obj` makes once connected (`connected`) beside its own (`own`, as the
   * informer's `set` gives them); returns the other claimants of the claims that changed.
   */
  setConnected(
    kind: string,
    obj: ManagedObject,
    own: readonly ClaimRef[],
    connected: readonly ClaimRef[],
    account: string | undefined,
  ): ClaimantRef[] {
    const key = objectKeyOf({ kind, namespace: obj.metadata.namespace, name: obj.metadata.name });
    if (connected.length === 0) this.#connected.delete(key);
    else this.#connected.set(key, connected);
    return this.set(kind, obj, own, account);
  }

  /**
   * Marks the create of `self` as acting on `claims` (not shared ones); answers the object
   * whose create already acts on one of them (nothing marked then), or undefined.
   */
  beginCreate(self: ClaimantRef, claims: readonly ClaimRef[]): ClaimantRef | undefined {
    const me = objectKeyOf(self);
    const keys = claims.filter((c) => c.shared !== true).map((c) => claimKey(c.type, c.id));
    for (const k of keys) {
      const holder = this.#creating.get(k);
      if (holder !== undefined && holder !== me) return claimantRefOf(holder);
    }
    for (const k of keys) this.#creating.set(k, me);
    return undefined;
  }

  /** Drops the create marks of `self` (its create made nothing, or the object is gone). */
  endCreate(self: ClaimantRef): void {
    const me = objectKeyOf(self);
    for (const [k, holder] of this.#creating) if (holder === me) this.#creating.delete(k);
  }

  /** Creates in flight (leak checks in tests). */
  get creating(): number {
    return this.#creating.size;
  }

  /** Stores `entry` under `ckey`; true when it is new or changed. */
  #put(ckey: string, entry: Claimant): boolean {
    const list = [...listOf(this.#byClaim.get(ckey))];
    const i = list.findIndex((c) => sameClaimant(c, entry));
    const changed = i < 0 || !sameEntry(list[i], entry);
    if (i < 0) list.push(entry);
    else list[i] = entry;
    this.#byClaim.set(ckey, packed(list)!);
    return changed;
  }

  /**
   * The claimant that beats `self` for its claim within `self`'s account (among those
   * `counts` accepts), or undefined when `self` may manage the resource.
   */
  rivalOf(
    self: Claimant,
    claim: Pick<ClaimRef, 'type' | 'id'>,
    counts: (other: Claimant) => boolean = () => true,
  ): Claimant | undefined {
    let best: Claimant | undefined;
    for (const other of listOf(this.#byClaim.get(claimKey(claim.type, claim.id)))) {
      if (!contends(other, self) || !counts(other)) continue;
      if (compareClaimants(other, self) >= 0) continue;
      if (!best || compareClaimants(other, best) < 0) best = other;
    }
    return best;
  }

  /**
   * The object that manages the resource `claim` names in `account` (the winner among its
   * claimants whose account may be `account`), or undefined when no object claims it there.
   */
  ownerOf(claim: Pick<ClaimRef, 'type' | 'id'>, account: string | undefined): Claimant | undefined {
    let best: Claimant | undefined;
    for (const c of listOf(this.#byClaim.get(claimKey(claim.type, claim.id)))) {
      if (!accountsOverlap(c.account, account) || !holds(c)) continue;
      if (!best || compareClaimants(c, best) < 0) best = c;
    }
    return best;
  }

  /**
   * Every claimant of the resource `claim` names whose account may be `account`, whoever
   * wins it (`ExternalContext.claimantsOf`).
   */
  claimantsOf(claim: Pick<ClaimRef, 'type' | 'id'>, account: string | undefined): Claimant[] {
    return listOf(this.#byClaim.get(claimKey(claim.type, claim.id))).filter(
      (c) => c.observer !== true && accountsOverlap(c.account, account),
    );
  }

  /** Number of claimed resources (for leak checks in tests and a gauge). */
  get size(): number {
    return this.#byClaim.size;
  }

  /** Number of objects holding at least one claim. */
  get objects(): number {
    let n = 0;
    for (const group of this.#byObject.values()) n += group.size;
    return n;
  }

  /** Stores (or, when undefined, forgets) the claim keys of an object. */
  #setObjectClaims(self: ClaimantRef, value: OneOrMany<string> | undefined): void {
    const gkey = groupKeyOf(self);
    let group = this.#byObject.get(gkey);
    if (value === undefined) {
      group?.delete(self.name);
      if (group?.size === 0) this.#byObject.delete(gkey);
      return;
    }
    if (!group) this.#byObject.set(gkey, (group = new Map<string, OneOrMany<string>>()));
    group.set(self.name, value);
  }

  #drop(ckey: string, self: ClaimantRef): void {
    const claimants = this.#byClaim.get(ckey);
    if (!claimants) return;
    const rest = packed(listOf(claimants).filter((c) => !sameClaimant(c, self)));
    if (rest === undefined) this.#byClaim.delete(ckey);
    else this.#byClaim.set(ckey, rest);
  }

  #othersOf(ckeys: Set<string>, self: ClaimantRef): ClaimantRef[] {
    const out = new Map<string, ClaimantRef>();
    for (const ckey of ckeys) {
      for (const c of listOf(this.#byClaim.get(ckey))) {
        if (sameClaimant(c, self)) continue;
        out.set(objectKeyOf(c), { kind: c.kind, namespace: c.namespace, name: c.name });
      }
    }
    return [...out.values()];
  }
}
