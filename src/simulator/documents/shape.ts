/**
 * The flattened view of a set of OpenAPI 3.0 schemas as one value must satisfy them: `$ref`s
 * resolved inside the area's document, `allOf`/`oneOf`/`anyOf` branches gathered, declared
 * members, array items and dictionary values collected. Used to walk a JSON value along its
 * schema: the documented response projection (responses.ts) and the live binding (binding.ts).
 */

type Json = Record<string, unknown>;

/** What a value of these schemas may hold. */
export interface Shape {
  /** Declared members and the schemas each must satisfy. */
  properties: Map<string, unknown[]>;
  items: unknown[];
  /** Schemas of undeclared members (dictionaries); `true` keeps them as they are. */
  additional: unknown[] | true | undefined;
  /** No structure declared at all (`{}`, `{type: object}`): the value is kept as it is. */
  free: boolean;
  /** Some schema says `additionalProperties: false`. */
  closed: boolean;
  /** Members some schema requires. */
  required: Set<string>;
  /** Some schema allows null (`nullable: true` or a `null` type). */
  nullable: boolean;
  /** String values of the enums among the schemas (empty when none is a string enum). */
  stringEnum: string[];
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `schema` with `$ref`s followed inside `doc`; undefined for anything else. */
export function resolveSchema(doc: Json, schema: unknown): Json | undefined {
  if (!isObject(schema)) return undefined;
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const seg of ref.slice(2).split('/')) {
    node = isObject(node) ? node[seg.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return resolveSchema(doc, node);
}

function collect(doc: Json, schema: unknown, leaves: Json[], seen: Set<unknown>): void {
  const s = resolveSchema(doc, schema);
  if (!s || seen.has(s)) return;
  seen.add(s);
  leaves.push(s);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) for (const sub of list) collect(doc, sub, leaves, seen);
  }
}

function addMembers(shape: Shape, leaf: Json): void {
  if (!isObject(leaf.properties)) return;
  shape.free = false;
  for (const [name, sub] of Object.entries(leaf.properties)) {
    shape.properties.set(name, [...(shape.properties.get(name) ?? []), sub]);
  }
  if (Array.isArray(leaf.required))
    for (const name of leaf.required) shape.required.add(String(name));
}

function addAdditional(shape: Shape, extra: unknown): void {
  if (extra === undefined) return;
  shape.free = false;
  if (extra === false) shape.closed = true;
  else if (extra === true) shape.additional = true;
  else if (isObject(extra) && shape.additional !== true) {
    shape.additional = [...(shape.additional ?? []), extra];
  }
}

function addValueRules(shape: Shape, leaf: Json): void {
  if (leaf.nullable === true) shape.nullable = true;
  if (leaf.type === 'null' || (Array.isArray(leaf.type) && leaf.type.includes('null'))) {
    shape.nullable = true;
  }
  if (Array.isArray(leaf.enum)) {
    for (const v of leaf.enum) if (typeof v === 'string') shape.stringEnum.push(v);
  }
}

function addLeaf(shape: Shape, leaf: Json): void {
  addMembers(shape, leaf);
  if (leaf.items !== undefined) shape.items.push(leaf.items);
  addAdditional(shape, leaf.additionalProperties);
  addValueRules(shape, leaf);
}

/** The shape of a value that must satisfy every schema of `schemas` (resolved in `doc`). */
export function shapeOf(doc: Json, schemas: readonly unknown[]): Shape {
  const leaves: Json[] = [];
  const seen = new Set<unknown>();
  for (const s of schemas) {
    // `{$ref, nullable: true}`: the sibling is lost when the ref is followed.
    if (isObject(s) && s.nullable === true) leaves.push({ nullable: true });
    collect(doc, s, leaves, seen);
  }
  const shape: Shape = {
    properties: new Map(),
    items: [],
    additional: undefined,
    free: true,
    closed: false,
    required: new Set(),
    nullable: false,
    stringEnum: [],
  };
  for (const leaf of leaves) addLeaf(shape, leaf);
  return shape;
}
