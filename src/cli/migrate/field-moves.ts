/**
 * Field moves of `cdnctl migrate`: per kind, the spec and status paths that changed name between
 * `cdn.operator.io/v1alpha1` and the families' groups. Both modes apply the same table: the
 * manifest mode to YAML documents (comments travel with the moved node), the live mode to the
 * spec and status it copies. Empty for now: the move to the families' groups renamed no field.
 * A later rename is one line here (`PullZoneConfig: [{ from: ['spec', 'old'], to: ['spec', 'new'] }]`).
 */

/** One path move: the value at `from` goes to `to` (both from the object's root). */
export interface FieldMove {
  readonly from: readonly string[];
  readonly to: readonly string[];
}

/** The moves of each kind, by kind name. */
export type FieldMoveTable = Readonly<Record<string, readonly FieldMove[]>>;

/** The moves of this release (see the module comment). */
export const FIELD_MOVES: FieldMoveTable = {};

/**
 * What a mover reads and writes: a plain object ({@link plainStore}) or a YAML document
 * (`yaml`'s Document has these four methods with the same meaning).
 */
export interface PathStore {
  hasIn(path: readonly string[]): boolean;
  getIn(path: readonly string[], keepNode?: boolean): unknown;
  setIn(path: readonly string[], value: unknown): void;
  deleteIn(path: readonly string[]): boolean;
}

const dotted = (path: readonly string[]): string => path.join('.');

/**
 * Applies `moves` to `store` in order and returns one line per move made
 * (`spec.a -> spec.b`). A move whose source is absent is skipped (so a second run changes
 * nothing); one whose source and target are both set is refused (`cannot move ...`), since
 * either value could be the one the user means.
 */
export function applyFieldMoves(store: PathStore, moves: readonly FieldMove[]): string[] {
  const done: string[] = [];
  for (const move of moves) {
    if (!store.hasIn(move.from)) continue;
    if (store.hasIn(move.to)) {
      throw new Error(
        `cannot move ${dotted(move.from)} to ${dotted(move.to)}: both are set; keep one`,
      );
    }
    store.setIn(move.to, store.getIn(move.from, true));
    store.deleteIn(move.from);
    done.push(`${dotted(move.from)} -> ${dotted(move.to)}`);
  }
  return done;
}

type Json = Record<string, unknown>;

const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The map at `path` (created when `create`), or undefined when a step is not a map. */
function mapAt(root: Json, path: readonly string[], create: boolean): Json | undefined {
  let node: Json = root;
  for (const key of path) {
    const next = node[key];
    if (isMap(next)) node = next;
    else if (create && next === undefined) node = node[key] = {};
    else return undefined;
  }
  return node;
}

/** A {@link PathStore} over a plain JSON object (changed in place). */
export function plainStore(root: Json): PathStore {
  const parentOf = (path: readonly string[], create: boolean): Json | undefined =>
    mapAt(root, path.slice(0, -1), create);
  const last = (path: readonly string[]): string => path[path.length - 1] ?? '';
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
      if (!parent || !(last(path) in parent)) return false;
      delete parent[last(path)];
      return true;
    },
  };
}
