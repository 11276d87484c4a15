/**
 * A keyed child list as data: the children of a parent resource that its spec lists in one
 * member (a DNS zone's `spec.records`) and its platform record holds (the zone's `Records`),
 * each child managed by add, update and delete calls of its own. An entry is the live child of
 * the same key: its identifying members (`keyMembers`: type, name, value) as the platform reads
 * them back. The entry's field table (kit/fields.ts) gives everything else: the add body, the
 * comparison and update of the other members, the CRD of an entry, the status list (the key
 * members, the child's id and whether this object created it) and the spec path of a member an
 * error names. How the list is planned: child-plan.ts; applied: child-external.ts; its errors:
 * child-errors.ts.
 */
import type { ClaimHolder, FieldDiff, ManagedObject } from '../../runtime/types.js';
import type { DocumentBounds, Schema } from '../shared/crd-schema.js';
import { booleanSchema, int64Schema, listSchema, objectSchema } from '../shared/schema-nodes.js';
import { createBody, liveValueOf, schemaOf, type AnyField } from './fields.js';

/** The identifying members of a child (type, name, value), as status records them. */
export type ChildContent = Record<string, unknown>;

/** One entry of the status list: a listed child found live (or created here), and its id. */
export type ChildStatus<C extends ChildContent = ChildContent> = C & {
  id: number;
  /** This object created the child (so it is deleted when dropped from the spec list). */
  created?: boolean;
};

/**
 * One child call. `label` is the child's short text (`A www "192.0.2.1"`); `entry` the index in
 * the spec list of the entry a create or update applies, so that a refusal names it.
 */
export type ChildAction =
  | { op: 'create'; record: Record<string, unknown>; entry: number; label: string }
  | { op: 'update'; id: number; record: Record<string, unknown>; entry: number; label: string }
  | { op: 'delete'; label: string; id: number };

/** The claim lookups of a pass (`ExternalContext`); absent: nothing is claimed. */
export interface ChildClaims {
  /** Another object manages the child of this claim (by id or by key): never touched. */
  claimedByOther?: (type: string, id: string) => boolean;
  /** Who claims what: what keeps an unlisted child from being deleted. */
  claimantsOf?: (type: string, id: string) => readonly ClaimHolder[];
}

/** What a plan is made from (child-plan.ts). */
export interface ChildPlanInput<C extends ChildContent = ChildContent> extends ChildClaims {
  /** Platform id of the parent. */
  parentId: number;
  /** The object planning (its namespace decides which claims count). */
  parent: { namespace: string; name: string };
  /** The spec list. */
  entries: readonly object[] | undefined;
  /** The spec's policy for unlisted children: `Exact`, else `Additive`. */
  policy: string | undefined;
  /** The children the parent's record holds. */
  live: readonly object[];
  /** The status list of the previous pass. */
  previous: readonly ChildStatus<C>[] | undefined;
}

/** A plan (child-plan.ts). */
export interface ChildPlan<C extends ChildContent = ChildContent> {
  diffs: FieldDiff[];
  actions: ChildAction[];
  /** The status list: the listed children found live (and created ones not yet deleted). */
  observed: ChildStatus<C>[];
  /** Listed entries another object manages (each a sentence naming the entry). */
  conflicts: string[];
  /** Listed entries this object adopted that are no longer live: never created again. */
  gone: string[];
}

/** A parent's keyed child list (see the module comment). */
export interface ChildList<C extends ChildContent = ChildContent> {
  /** Spec member of the entries and status member of the children found (`records`). */
  readonly path: string;
  /** Spec member of the policy for unlisted children (`Additive` or `Exact`). */
  readonly policyPath: string;
  /** How messages name a child (`record`) and its parent (`zone`). */
  readonly what: string;
  readonly parentWhat: string;
  /** The members of an entry. */
  readonly fields: readonly AnyField[];
  /** The members naming a child: its key, and what the status list records of it. */
  readonly keyMembers: readonly string[];
  /** Member of the parent's record holding the children, and of a child holding its id. */
  readonly liveApi: string;
  readonly idApi: string;
  /** Status member counting the parent's children, if any. */
  readonly countStatus?: string;
  /** The key of a child of parent `parentId` (also its claim id by content). */
  keyOf(parentId: number, content: C): string;
  /** Short text of a child for plans and messages (`A www "192.0.2.1"`). */
  label(content: C): string;
  /** Claim types of a child, by id and by key; `holder` names a claimant no lookup names. */
  readonly claims: { readonly id: string; readonly content: string; readonly holder: string };
  /** Ids of the live children another object manages: never deleted. */
  managedElsewhere(
    input: ChildPlanInput<C> & Required<Pick<ChildClaims, 'claimantsOf'>>,
  ): Set<number>;
  /** Reason of Synced=False while a listed entry is managed by another object. */
  readonly conflictReason: string;
}

/** The spec path of entry `index` (`spec.records[2]`). */
export function entryPath(list: ChildList, index: number): string {
  return `spec.${list.path}[${index}]`;
}

/** An entry as the object the table's functions read. */
export function entryObject(spec: object): ManagedObject {
  const meta = { name: '', namespace: '' };
  return { apiVersion: '', kind: '', metadata: meta, spec: spec as Record<string, unknown> };
}

function keyFields(list: ChildList): AnyField[] {
  return list.fields.filter((f) => list.keyMembers.includes(f.spec));
}

/** The key members of a child the platform holds (or of a body sent for one). */
export function liveContent<C extends ChildContent>(list: ChildList<C>, record: object): C {
  const rec = record as Record<string, unknown>;
  return Object.fromEntries(keyFields(list).map((f) => [f.spec, liveValueOf(f, rec)])) as C;
}

/** The key members of an entry as the platform reads back what its create sends (`@`: `""`). */
export function entryContent<C extends ChildContent>(list: ChildList<C>, spec: object): C {
  return liveContent(list, createBody(keyFields(list), entryObject(spec)));
}

/** The id of a live child. */
export function childIdOf(list: ChildList, record: object): number | undefined {
  const id = (record as Record<string, unknown>)[list.idApi];
  return typeof id === 'number' ? id : undefined;
}

/** What the CRD says of the spec list besides its entries' members. */
export interface ChildListWords {
  readonly description: string;
  /** Of one entry. */
  readonly entry: string;
  readonly maxItems: number;
}

/**
 * The CRD of the spec list: its entries are the table's members. No single member names an
 * entry (the key members do together): the list is replaced whole.
 */
export function childListSchema(
  list: ChildList,
  docs: DocumentBounds,
  words: ChildListWords,
): Schema {
  const entry = { type: 'object', description: words.entry, ...schemaOf(list.fields, docs) };
  return listSchema(words.description, entry, { maxItems: words.maxItems });
}

/** The CRD of the status list: the key members in the table's words, the id, `created`. */
export function childStatusSchema(list: ChildList, description: string): Schema {
  const members = keyFields(list).map((f) => [
    f.spec,
    { type: f.codec.schema.type, description: f.description },
  ]);
  const item = objectSchema({
    ...(Object.fromEntries(members) as Record<string, Schema>),
    id: int64Schema(`Platform id of the ${list.what}.`),
    created: booleanSchema(
      `This resource created the ${list.what} (deleted when dropped from spec.${list.path}).`,
    ),
  });
  return { type: 'array', description, items: item };
}
