/**
 * Bounds, enums and patterns of CRD fields read from the API documents at generation time, so
 * the CRDs cannot drift from what the platform accepts. The documents are the committed model
 * of the official OpenAPI documents (src/simulator/generated/api-model/, `make generate`), or
 * the full documents in CDN_SIM_OPENAPI_DIR when it is set.
 */
import type { BoundKey, DocumentBounds } from '../../src/controllers/shared/crd-schema.js';
import { defaultDocumentsDir, loadDocuments, type ApiDocuments } from '../../src/simulator/documents/load.js';
import type { Area } from '../../src/simulator/types.js';

type Json = Record<string, unknown>;

/** Keys copied from a document property unless a field asks for fewer. */
export const BOUND_KEYS: readonly BoundKey[] = [
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'enum',
  'format',
];
export type { BoundKey };

let documents: ApiDocuments | undefined;

function schemasOf(area: Area): Record<string, Json> {
  documents ??= loadDocuments(defaultDocumentsDir());
  return (documents[area].components as Json).schemas as Record<string, Json>;
}

function resolve(area: Area, node: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  return resolve(area, schemasOf(area)[ref.split('/').pop()!]!);
}

/**
 * The document's pattern as Kubernetes can check it. .NET matches a whole value, so the
 * pattern is anchored. RE2 (the apiserver) has no look-ahead, and CEL `matches` on every list
 * item exceeds the CRD cost budget, so `(?!...)` groups are left out: the CRD then accepts a
 * superset, and the platform's answer names the field for the rest.
 */
function translatePattern(pattern: string): Json {
  const plain = pattern.replace(/\(\?![^()]*\)/g, '');
  const core = plain.replace(/^\^/, '').replace(/\$$/, '');
  return { pattern: `^(?:${core})$` };
}

function pick(area: Area, node: Json, take: readonly BoundKey[]): Json {
  const out: Json = {};
  for (const key of take) {
    const value = node[key];
    if (value === undefined) continue;
    if (key === 'pattern') Object.assign(out, translatePattern(value as string));
    else if (key === 'format' && !['int32', 'int64', 'date-time'].includes(value as string)) continue;
    else out[key] = value;
  }
  const items = node.items as Json | undefined;
  if (items && take.includes('enum')) {
    const inner = resolve(area, items);
    if (inner.enum) out.items = { enum: inner.enum };
  }
  return out;
}

/**
 * The bounds the document gives `Schema.property` (or the component `Schema` itself, e.g. an
 * enum): `doc('AutoscalingSettings.max')` -> `{minimum: 1, maximum: 1000, format: 'int32'}`.
 */
export function documentBounds(
  area: Area,
  path: string,
  take: readonly BoundKey[] = BOUND_KEYS,
): Json {
  const [schema, property] = path.split('.');
  const component = schemasOf(area)[schema!];
  if (!component) throw new Error(`cannot read bounds: ${area} document has no schema ${schema}`);
  const node = property === undefined ? component : (component.properties as Json)[property];
  if (!node) throw new Error(`cannot read bounds: ${schema} has no property ${property}`);
  return pick(area, resolve(area, node as Json), take);
}

/**
 * The names of an integer enum component (`x-enum-varnames`), in number order: the CRD takes
 * the names and the controller sends the numbers. `documentEnumNames('shield',
 * 'WAFExecutionMode')` -> `['Log', 'Block']`.
 */
export function documentEnumNames(area: Area, schema: string): string[] {
  const component = schemasOf(area)[schema];
  if (!component) throw new Error(`cannot read enum: ${area} document has no schema ${schema}`);
  const names = component['x-enum-varnames'];
  if (!Array.isArray(names)) throw new Error(`cannot read enum: ${schema} has no x-enum-varnames`);
  return names as string[];
}

/**
 * The names of an integer enum component of the core document, which spells the extension
 * `x-enumNames` (the Shield document: `x-enum-varnames`), in number order.
 */
export function documentXEnumNames(area: Area, schema: string): string[] {
  const component = schemasOf(area)[schema];
  if (!component) throw new Error(`cannot read enum: ${area} document has no schema ${schema}`);
  const names = component['x-enumNames'] ?? component['x-enum-varnames'];
  if (!Array.isArray(names)) throw new Error(`cannot read enum: ${schema} has no x-enumNames`);
  return names as string[];
}

/**
 * The codes a property's description lists as `(Possible values: A, B, C)`: the only place the
 * core document gives the storage zone region codes. Throws when the list is missing, so a
 * changed document fails the generation instead of dropping the enum.
 */
export function documentListedValues(area: Area, path: string): string[] {
  const [schema, property] = path.split('.');
  const node = (schemasOf(area)[schema!]?.properties as Json | undefined)?.[property!] as
    | Json
    | undefined;
  const text = typeof node?.description === 'string' ? node.description : '';
  const match = /\(Possible values: ([^)]*)\)/.exec(text);
  if (!match) throw new Error(`cannot read values: ${path} lists no "Possible values"`);
  return match[1]!.split(',').map((v) => v.trim()).filter((v) => v !== '');
}

/**
 * The property names of the object `Schema.property` (its `$ref` followed): the request
 * variables a shield rule may inspect are the members of `variableTypes`.
 */
export function documentPropertyNames(area: Area, path: string): string[] {
  const [schema, property] = path.split('.');
  const component = schemasOf(area)[schema!];
  const raw = (component?.properties as Json | undefined)?.[property!] as Json | undefined;
  const node = raw && resolve(area, raw);
  const names = node?.properties ? Object.keys(node.properties) : [];
  if (names.length === 0) throw new Error(`cannot read property names: ${path} has no properties`);
  return names;
}

/** The official documents as the kinds' CRD schemas read them (see shared/crd-schema.ts). */
export const officialDocuments: DocumentBounds = {
  bounds: documentBounds,
  enumNames: documentEnumNames,
  xEnumNames: documentXEnumNames,
  listedValues: documentListedValues,
  propertyNames: documentPropertyNames,
};
