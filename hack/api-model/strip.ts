/**
 * Reduces an official OpenAPI document to its structural model: the same OpenAPI 3 shape and
 * key order (so code that walks the document walks the model the same way), minus prose.
 *
 * Kept: paths, methods, operationId, parameters, request and response bodies, components,
 * types, formats, enums, bounds, patterns, required lists, nullable, readOnly, default,
 * additionalProperties, security, and the enum-name extensions (`x-enumNames`,
 * `x-enum-varnames`) the CRD generator and the controllers' enum tables read.
 * Dropped: description, summary, title, example(s), tags, externalDocs, contact, license,
 * terms of service and every other `x-*` extension (NSwag bookkeeping and messages).
 *
 * One description survives in part: a `(Possible values: A, B)` list is the only place the
 * core document gives some codes (the storage zone regions), so a description that carries one
 * is reduced to exactly that list; the rest of its sentence is dropped.
 */

type Json = Record<string, unknown>;

/** Keys dropped wherever they name a keyword (not where they name a property or a path). */
const PROSE_KEYS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'tags',
  'externalDocs',
  'termsOfService',
  'contact',
  'license',
]);

/** `x-*` extensions that carry structure (enum member names), not prose. */
const KEPT_EXTENSIONS = new Set(['x-enumNames', 'x-enum-varnames']);

/** Keywords whose value is a map from names (properties, paths, statuses...) to nodes. */
const NAMED_MAPS = new Set([
  'paths',
  'properties',
  'patternProperties',
  'responses',
  'content',
  'headers',
  'encoding',
  'links',
  'callbacks',
  'variables',
]);

/** Keywords whose value is data, copied as it is (never read as keywords). */
const VERBATIM = new Set([
  'enum',
  'default',
  'const',
  'required',
  'security',
  'mapping',
  'x-enumNames',
  'x-enum-varnames',
]);

const POSSIBLE_VALUES = /\(Possible values: [^)]*\)/;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keepsKey(key: string): boolean {
  if (key.startsWith('x-')) return KEPT_EXTENSIONS.has(key);
  return !PROSE_KEYS.has(key);
}

/** Entries of `node`; throws on `__proto__`, which an assignment would turn into a prototype. */
function entriesOf(node: Json): [string, unknown][] {
  const entries = Object.entries(node);
  if (entries.some(([key]) => key === '__proto__')) {
    throw new Error('cannot model the document: it has a member named __proto__');
  }
  return entries;
}

function stripMap(map: Json): Json {
  const out: Json = {};
  for (const [name, value] of entriesOf(map)) out[name] = stripNode(value);
  return out;
}

/** `components`: every member (schemas, parameters, responses...) is a map of names. */
function stripComponents(components: Json): Json {
  const out: Json = {};
  for (const [kind, map] of entriesOf(components)) {
    if (keepsKey(kind)) out[kind] = isObject(map) ? stripMap(map) : map;
  }
  return out;
}

/** The kept value of keyword `key`, or undefined when the keyword is dropped. */
function stripMember(key: string, value: unknown): unknown {
  if (key === 'description') {
    return typeof value === 'string' ? POSSIBLE_VALUES.exec(value)?.[0] : undefined;
  }
  if (!keepsKey(key)) return undefined;
  if (VERBATIM.has(key)) return structuredClone(value);
  if (NAMED_MAPS.has(key) && isObject(value)) return stripMap(value);
  return stripNode(value);
}

function stripNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripNode);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of entriesOf(node)) {
    const kept = stripMember(key, value);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/** The document's `info` without prose: its title (a name) and version. */
function stripInfo(info: unknown): Json {
  if (!isObject(info)) return {};
  const out: Json = {};
  if (typeof info.title === 'string') out.title = info.title;
  if (typeof info.version === 'string') out.version = info.version;
  return out;
}

/**
 * The structural model of one official document (a new object; the input is not changed).
 * Throws on a member named `__proto__`, which an object literal or spread would not keep.
 */
export function toApiModel(document: Json): Json {
  const out: Json = {};
  for (const [key, value] of entriesOf(document)) {
    const kept =
      key === 'info'
        ? stripInfo(value)
        : key === 'components' && isObject(value)
          ? stripComponents(value)
          : stripMember(key, value);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}
