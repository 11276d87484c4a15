/**
 * Field moves of `cdnctl migrate`: per kind, the spec and status fields renamed (and enum values
 * respelled) between `cdn.operator.io/v1alpha1` and v1beta1. Each kind declares its own as data
 * (`legacyMoves` of its KindModule, src/controllers/kind-module.ts); both modes apply the same
 * table: the manifest mode to YAML documents (comments travel with the moved node), the live mode
 * to the spec and status it copies.
 */
import type { LegacyFieldMove } from '../../controllers/kind-module.js';
import { KINDS } from '../../controllers/kinds.js';
import { isMap, isNode } from 'yaml';

/** One move: the value at `from` goes to `to` (dotted from the root, `[]` = every list item). */
export type FieldMove = LegacyFieldMove;

/** The moves of each kind, by kind name. */
export type FieldMoveTable = Readonly<Record<string, readonly FieldMove[]>>;

/**
 * Moves of the blocks every kind shares (the runtime's `status.ownership`), applied before a
 * kind's own; a kind without the block has nothing to move.
 */
export const SHARED_MOVES: readonly FieldMove[] = [
  { from: 'status.ownership.createPending', to: 'status.ownership.createPendingTime' },
  { from: 'status.ownership.createRefused', to: 'status.ownership.createRefusedTime' },
];

/** The moves of this release: the shared ones, then every kind's `legacyMoves`. */
export const FIELD_MOVES: FieldMoveTable = Object.fromEntries(
  KINDS.map((k) => [k.kind, [...SHARED_MOVES, ...(k.legacyMoves ?? [])]]),
);

/** A step of a concrete path: a mapping key or a list index. */
type Key = string | number;

/**
 * What a mover reads and writes: a plain object ({@link plainStore}) or a YAML document
 * (`yaml`'s Document has these four methods with the same meaning).
 */
export interface PathStore {
  hasIn(path: readonly Key[]): boolean;
  getIn(path: readonly Key[], keepNode?: boolean): unknown;
  setIn(path: readonly Key[], value: unknown): void;
  deleteIn(path: readonly Key[]): boolean;
  /**
   * Renames the key at `path` to `key` where it stands (same mapping, same place, its comments
   * kept); false when the store cannot, and the mover then sets and deletes instead.
   */
  renameIn?(path: readonly Key[], key: string): boolean;
  /**
   * Puts the value at `path` one level down, under `key` (`true` → `{enabled: true}`), where it
   * stands; false when the store cannot, and the mover then deletes and sets instead.
   */
  nestIn?(path: readonly Key[], key: string): boolean;
}

const dotted = (path: readonly Key[]): string =>
  path
    .map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`))
    .join('')
    .replace(/^\./, '');

/** The number of items of the list at `path` (a plain array or a YAML sequence node), else 0. */
function lengthAt(store: PathStore, path: readonly Key[]): number {
  const node = store.getIn(path, true);
  if (Array.isArray(node)) return node.length;
  const items = (node as { items?: unknown } | null | undefined)?.items;
  return Array.isArray(items) ? items.length : 0;
}

/**
 * Every concrete path of a dotted path with `[]` (each list item at that place, the lists read
 * from `store`), paired with the same items' path in `to`.
 */
function concretePairs(store: PathStore, from: string, to: string): [Key[], Key[]][] {
  const split = (p: string): string[][] =>
    p.split('[]').map((part) => part.split('.').filter(Boolean));
  const fromParts = split(from);
  const toParts = split(to);
  if (fromParts.length !== toParts.length) {
    throw new Error(`cannot move ${from} to ${to}: they cross a different number of lists`);
  }
  let pairs: [Key[], Key[]][] = [[fromParts[0] ?? [], toParts[0] ?? []]];
  for (let i = 1; i < fromParts.length; i++) {
    pairs = pairs.flatMap(([f, t]) =>
      Array.from({ length: lengthAt(store, f) }, (_, n): [Key[], Key[]] => [
        [...f, n, ...(fromParts[i] ?? [])],
        [...t, n, ...(toParts[i] ?? [])],
      ]),
    );
  }
  return pairs;
}

/**
 * Moves a value into a child of its own place (`spec.dnssec: true` → `spec.dnssec.enabled`):
 * a mapping there is the new shape already (nothing to do), anything else is taken out, then
 * put back one level down.
 */
function nestOne(store: PathStore, from: Key[], to: Key[]): string[] {
  const node = store.getIn(from, true);
  if (isMapping(node)) return [];
  const key = to[to.length - 1];
  const oneDown = to.length === from.length + 1 && typeof key === 'string';
  if (!(oneDown && store.nestIn?.(from, key))) {
    store.deleteIn(from);
    store.setIn(to, node);
  }
  return [`${dotted(from)} -> ${dotted(to)}`];
}

/** A plain object or a YAML mapping node. */
function isMapping(node: unknown): boolean {
  if (isNode(node)) return isMap(node);
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

/**
 * Sets `move.also` beside `to` (refusing a key set to another value); returns the lines to
 * report. Run before the value moves, so that the constants come first in a new mapping.
 */
function setAlso(store: PathStore, from: Key[], to: Key[], move: FieldMove): string[] {
  const siblings = Object.entries(move.also ?? {}).map(([key, value]): [Key[], unknown] => [
    [...to.slice(0, -1), key],
    value,
  ]);
  for (const [path, value] of siblings) {
    const held: unknown = store.getIn(path);
    if (held !== undefined && held !== value) {
      throw new Error(
        `cannot move ${dotted(from)} to ${dotted(to)}: ${dotted(path)} is ${JSON.stringify(held)}, not ${JSON.stringify(value)}; keep one`,
      );
    }
  }
  return siblings.flatMap(([path, value]) => {
    if (store.hasIn(path)) return [];
    store.setIn(path, value);
    return [`${dotted(path)} = ${String(value)}`];
  });
}

/** Moves one concrete path; returns the lines to report, if it moved. */
function moveOne(store: PathStore, from: Key[], to: Key[], move: FieldMove): string[] {
  if (dotted(from) === dotted(to) || !store.hasIn(from)) return [];
  if (dotted(to).startsWith(`${dotted(from)}.`)) return nestOne(store, from, to);
  if (store.hasIn(to)) {
    throw new Error(`cannot move ${dotted(from)} to ${dotted(to)}: both are set; keep one`);
  }
  const also = setAlso(store, from, to, move);
  const sameParent = dotted(from.slice(0, -1)) === dotted(to.slice(0, -1));
  const key = to[to.length - 1];
  if (!(sameParent && typeof key === 'string' && store.renameIn?.(from, key))) {
    store.setIn(to, store.getIn(from, true));
    store.deleteIn(from);
  }
  return [`${dotted(from)} -> ${dotted(to)}`, ...also];
}

/** The value `move` makes of `value`, if it changes it. */
function respelled(value: unknown, move: FieldMove): string | number | undefined {
  if (typeof value !== 'string') return undefined;
  if (move.values && Object.hasOwn(move.values, value)) return move.values[value];
  if (move.toInteger && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

/** Respells the value at `path` by `move`; returns the line to report, if it changed. */
function respellOne(store: PathStore, path: Key[], move: FieldMove): string | undefined {
  const value = store.getIn(path);
  const next = respelled(value, move);
  if (next === undefined) return undefined;
  store.setIn(path, next);
  return `${dotted(path)}: ${String(value)} -> ${next}`;
}

/**
 * Applies `moves` to `store` in order and returns one line per change made
 * (`spec.a -> spec.b`, `spec.type: dockerHub -> DockerHub`, `spec.adoption.policy = ById` for
 * a constant `also` sets). A move whose source is absent is
 * skipped (so a second run changes nothing); one whose source and target are both set is refused
 * (`cannot move ...`), since either value could be the one the user means.
 */
export function applyFieldMoves(store: PathStore, moves: readonly FieldMove[]): string[] {
  const done: string[] = [];
  for (const move of moves) {
    for (const [from, to] of concretePairs(store, move.from, move.to)) {
      done.push(...moveOne(store, from, to, move));
      const changed = respellOne(store, to, move);
      if (changed) done.push(changed);
    }
  }
  return done;
}

type Json = Record<string | number, unknown>;

const isContainer = (v: unknown): v is Json => typeof v === 'object' && v !== null;

/** The mapping or list at `path` (mappings created when `create`), or undefined. */
function containerAt(root: Json, path: readonly Key[], create: boolean): Json | undefined {
  let node: Json = root;
  for (const key of path) {
    const next = node[key];
    if (isContainer(next)) node = next;
    else if (create && next === undefined && typeof key === 'string') node = node[key] = {};
    else return undefined;
  }
  return node;
}

/** A {@link PathStore} over a plain JSON object (changed in place; list items by index). */
export function plainStore(root: Record<string, unknown>): PathStore {
  const parentOf = (path: readonly Key[], create: boolean): Json | undefined =>
    containerAt(root, path.slice(0, -1), create);
  const last = (path: readonly Key[]): Key => path[path.length - 1] ?? '';
  return {
    hasIn: (path) => {
      const parent = parentOf(path, false);
      return parent !== undefined && parent[last(path)] !== undefined;
    },
    getIn: (path) => parentOf(path, false)?.[last(path)],
    setIn: (path, value) => {
      const parent = parentOf(path, true);
      if (!parent) throw new Error(`cannot set ${dotted(path)}: a parent is not a mapping`);
      parent[last(path)] = value;
    },
    deleteIn: (path) => {
      const parent = parentOf(path, false);
      if (!parent || Array.isArray(parent) || !(last(path) in parent)) return false;
      delete parent[last(path)];
      return true;
    },
  };
}
