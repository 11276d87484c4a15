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
 * 2. then the older object (creationTimestamp);
 * 3. then uid, namespace and name as tie breaks.
 *
 * Claims whose account is unknown (objects from an older operator version, not yet reconciled)
 * conflict with every account: refusing too much is safe, sharing a resource is not.
 * Entries are removed when their object is deleted, so the index never outgrows the caches.
 */
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
  return flatString(`${ref.kind}${SEP}${ref.namespace}${SEP}${ref.name}`);
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

/** The claimant entry of `obj` for one claim. */
export function claimantOf(
  kind: string,
  obj: ManagedObject,
  claim: ClaimRef,
  account: string | undefined,
): Claimant {
  return {
    kind,
    namespace: obj.metadata.namespace,
    name: obj.metadata.name,
    uid: obj.metadata.uid ?? '',
    creationTimestamp: obj.metadata.creationTimestamp ?? '',
    ...(account !== undefined ? { account } : {}),
    recorded: claim.recorded,
  };
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
    a.creationTimestamp === b.creationTimestamp
  );
}

/** See the module comment. */
export class ClaimIndex {
  // Arrays, not Maps/Sets, per claim and per object: almost every resource has one claimant
  // and every object one or two claims, and a one-entry Map costs several times a small
  // array (this index holds one entry per managed object; docs/runtime.md, Memory).
  readonly #byClaim = new Map<string, Claimant[]>();
  readonly #byObject = new Map<string, string[]>();

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
    const okey = objectKeyOf(self);
    const before = this.#byObject.get(okey) ?? [];
    const after: string[] = [];
    const touched = new Set<string>();
    for (const claim of claims) {
      const ckey = claimKey(claim.type, claim.id);
      if (!after.includes(ckey)) after.push(ckey);
      if (this.#put(ckey, claimantOf(kind, obj, claim, account))) touched.add(ckey);
    }
    for (const ckey of before) {
      if (after.includes(ckey)) continue;
      this.#drop(ckey, self);
      touched.add(ckey);
    }
    if (after.length > 0) this.#byObject.set(okey, after);
    else this.#byObject.delete(okey);
    return this.#othersOf(touched, self);
  }

  /** Removes every claim of the object; returns the other claimants of those claims. */
  remove(kind: string, obj: ManagedObject): ClaimantRef[] {
    return this.set(kind, obj, [], undefined);
  }

  /** Stores `entry` under `ckey`; true when it is new or changed. */
  #put(ckey: string, entry: Claimant): boolean {
    const list = this.#byClaim.get(ckey);
    if (!list) {
      this.#byClaim.set(ckey, [entry]);
      return true;
    }
    const i = list.findIndex((c) => sameClaimant(c, entry));
    if (i < 0) {
      list.push(entry);
      return true;
    }
    const changed = !sameEntry(list[i], entry);
    list[i] = entry;
    return changed;
  }

  /**
   * The claimant that beats `self` for its claim within `self`'s account, or undefined when
   * `self` may manage the resource.
   */
  rivalOf(self: Claimant, claim: Pick<ClaimRef, 'type' | 'id'>): Claimant | undefined {
    const claimants = this.#byClaim.get(claimKey(claim.type, claim.id));
    if (!claimants) return undefined;
    let best: Claimant | undefined;
    for (const other of claimants) {
      if (sameClaimant(other, self) || !accountsOverlap(other.account, self.account)) continue;
      if (compareClaimants(other, self) >= 0) continue;
      if (!best || compareClaimants(other, best) < 0) best = other;
    }
    return best;
  }

  /** Number of claimed resources (for leak checks in tests and a gauge). */
  get size(): number {
    return this.#byClaim.size;
  }

  /** Number of objects holding at least one claim. */
  get objects(): number {
    return this.#byObject.size;
  }

  #drop(ckey: string, self: ClaimantRef): void {
    const claimants = this.#byClaim.get(ckey);
    if (!claimants) return;
    const rest = claimants.filter((c) => !sameClaimant(c, self));
    if (rest.length === 0) this.#byClaim.delete(ckey);
    else this.#byClaim.set(ckey, rest);
  }

  #othersOf(ckeys: Set<string>, self: ClaimantRef): ClaimantRef[] {
    const out = new Map<string, ClaimantRef>();
    for (const ckey of ckeys) {
      for (const c of this.#byClaim.get(ckey) ?? []) {
        if (sameClaimant(c, self)) continue;
        out.set(objectKeyOf(c), { kind: c.kind, namespace: c.namespace, name: c.name });
      }
    }
    return [...out.values()];
  }
}
