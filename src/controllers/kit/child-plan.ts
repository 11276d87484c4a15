/**
 * Pure planning of a keyed child list (child-list.ts): which live child each entry is, and the
 * fewest child calls that make the parent match.
 *
 * - An entry is the live child of its key: one created earlier, one whose create answer was
 *   lost, or one that was already there are all adopted by key, never duplicated. Its other
 *   members are compared and updated in place. The same key listed twice is one child (the
 *   first entry's members count).
 * - An entry with no live child is created, unless the previous status list shows this object
 *   adopted it (an item without `created`: it was on the platform before this object listed it).
 *   An adopted child that is gone is never created again: the plan names it in `gone`
 *   (reported NotFound). Whether a child was created here is read from the status list's
 *   `created` only, so that member must survive every pass that created one.
 * - An entry another object manages (a claim by the child's id or by its key) is a conflict:
 *   neither created nor changed, and the parent reports it.
 * - Policy `Additive` (default): children not listed are left alone, except those this object
 *   created and dropped from the list (the status list says which), which are deleted.
 *   `Exact`: every child neither listed nor managed by another object is deleted.
 * - A child another object manages (the list's `managedElsewhere`) is never deleted. Under
 *   `Exact` the claim lookup is required: without it every child would look unmanaged, so
 *   nothing is guessed.
 */
import {
  childIdOf,
  entryContent,
  entryObject,
  entryPath,
  liveContent,
  type ChildContent,
  type ChildList,
  type ChildPlan,
  type ChildPlanInput,
  type ChildStatus,
} from './child-list.js';
import { compareFields, createBody } from './fields.js';

/** The error of an `Exact` plan without the claim index (every child would look unmanaged). */
export function noClaimIndex(list: ChildList): string {
  return `cannot apply spec.${list.policyPath} Exact: the claim index is not available, so ${list.what}s other objects manage cannot be told apart; nothing is deleted`;
}

interface Planning<C extends ChildContent> {
  list: ChildList<C>;
  input: ChildPlanInput<C>;
  keyOf: (c: C) => string;
  byKey: Map<string, object>;
  createdBefore: Set<string>;
  /** Status items of children this object adopted (not created), by key. */
  adoptedBefore: Map<string, ChildStatus<C>>;
  out: ChildPlan<C>;
}

function claimedElsewhere<C extends ChildContent>(
  p: Planning<C>,
  key: string,
  id?: number,
): boolean {
  const claimed = p.input.claimedByOther;
  if (!claimed) return false;
  if (id !== undefined && claimed(p.list.claims.id, String(id))) return true;
  return claimed(p.list.claims.content, key);
}

/** `DnsRecord ns/name, ...` of the objects claiming the child, or the list's generic phrase. */
function claimantNames<C extends ChildContent>(p: Planning<C>, key: string, id?: number): string {
  const lookup = p.input.claimantsOf;
  const { claims } = p.list;
  const holders = lookup
    ? [...(id !== undefined ? lookup(claims.id, String(id)) : []), ...lookup(claims.content, key)]
    : [];
  const names = [...new Set(holders.map((h) => `${h.kind} ${h.namespace}/${h.name}`))];
  return names.length > 0 ? names.join(', ') : `another object (${claims.holder})`;
}

/** Plans an entry with no live child: created, unless this object adopted it. */
function planMissing<C extends ChildContent>(p: Planning<C>, spec: object, index: number): void {
  const content = entryContent(p.list, spec);
  const label = p.list.label(content);
  const adopted = p.adoptedBefore.get(p.keyOf(content));
  if (adopted) {
    // Kept in status: the next pass must still know it was adopted, not created.
    p.out.observed.push(adopted);
    p.out.gone.push(
      `${entryPath(p.list, index)} (${label}) was adopted (it was on the platform before this object listed it) and ${p.list.what} ${adopted.id} is gone`,
    );
    return;
  }
  const record = createBody(p.list.fields, entryObject(spec));
  p.out.actions.push({ op: 'create', record, entry: index, label });
  p.out.diffs.push({ field: `${p.list.path}[${label}]`, live: '<absent>', desired: 'present' });
}

/** Plans one entry; answers the id of the live child it is, if any. */
function planOne<C extends ChildContent>(
  p: Planning<C>,
  spec: object,
  index: number,
): number | undefined {
  const content = entryContent(p.list, spec);
  const key = p.keyOf(content);
  const live = p.byKey.get(key);
  const id = live && childIdOf(p.list, live);
  const label = p.list.label(content);
  if (claimedElsewhere(p, key, id)) {
    const who = claimantNames(p, key, id);
    p.out.conflicts.push(`${entryPath(p.list, index)} (${label}) is managed by ${who}`);
    return undefined;
  }
  if (live === undefined || id === undefined) {
    planMissing(p, spec, index);
    return undefined;
  }
  p.out.observed.push({ ...content, id, ...(p.createdBefore.has(key) ? { created: true } : {}) });
  const what = p.list.what;
  const { update, diffs } = compareFields(p.list.fields, entryObject(spec), live as never, what);
  if (diffs.length === 0) return id;
  p.out.actions.push({ op: 'update', id, record: update, entry: index, label });
  for (const d of diffs) p.out.diffs.push({ ...d, field: `${p.list.path}[${label}].${d.field}` });
  return id;
}

/** Plans the entries; answers the ids of the live children they are. */
function planListed<C extends ChildContent>(p: Planning<C>): Set<number> {
  const used = new Set<number>();
  const listed = new Set<string>();
  for (const [index, spec] of (p.input.entries ?? []).entries()) {
    const key = p.keyOf(entryContent(p.list, spec));
    if (listed.has(key)) continue;
    listed.add(key);
    const id = planOne(p, spec, index);
    if (id !== undefined) used.add(id);
  }
  return used;
}

/** Ids of the live children another object manages (none without a claim lookup). */
function managedElsewhere<C extends ChildContent>(p: Planning<C>): Set<number> {
  const { input } = p;
  if (input.policy === 'Exact' && !input.claimantsOf) throw new Error(noClaimIndex(p.list));
  if (!input.claimantsOf) return new Set();
  return p.list.managedElsewhere({ ...input, claimantsOf: input.claimantsOf });
}

/** Plans the deletion of the unlisted children the policy does not keep. */
function planUnlisted<C extends ChildContent>(p: Planning<C>, used: Set<number>): void {
  const managed = managedElsewhere(p);
  for (const record of p.input.live) {
    const id = childIdOf(p.list, record);
    if (id === undefined || used.has(id) || managed.has(id)) continue;
    const content = liveContent(p.list, record);
    const created = p.createdBefore.has(p.keyOf(content));
    if (p.input.policy !== 'Exact' && !created) continue;
    const label = p.list.label(content);
    // Kept in status until it is gone, so a failed delete is retried by the next pass.
    if (created) p.out.observed.push({ ...content, id, created: true });
    p.out.actions.push({ op: 'delete', label, id });
    p.out.diffs.push({ field: `${p.list.path}[${label}]`, live: 'present', desired: '<absent>' });
  }
}

/** See the module comment. */
export function planChildren<C extends ChildContent>(
  list: ChildList<C>,
  input: ChildPlanInput<C>,
): ChildPlan<C> {
  const keyOf = (c: C): string => list.keyOf(input.parentId, c);
  const out: ChildPlan<C> = { diffs: [], actions: [], observed: [], conflicts: [], gone: [] };
  const byKey = new Map<string, object>();
  for (const r of input.live) {
    const k = keyOf(liveContent(list, r));
    if (!byKey.has(k)) byKey.set(k, r);
  }
  const previous = input.previous ?? [];
  const createdBefore = new Set(previous.filter((s) => s.created).map(keyOf));
  const adoptedBefore = new Map(previous.filter((s) => !s.created).map((s) => [keyOf(s), s]));
  const p: Planning<C> = { list, input, keyOf, byKey, createdBefore, adoptedBefore, out };
  planUnlisted(p, planListed(p));
  return out;
}
