/**
 * The simulator's hand-written schemas for edge rules, purge and storage zones must say what
 * the official core document says: same properties, same required list, same enum values.
 */
import test, { type ExecutionContext } from 'ava';
import { CORE_SCHEMAS } from '../../../src/simulator/routes/core-schema.js';
import { loadOpenApiDocument } from '../../support/openapi-docs.js';

type Json = Record<string, unknown>;
const schemas = (loadOpenApiDocument('core').components as Json).schemas as Record<string, Json>;

function resolve(node: Json): Json {
  const direct = node.$ref ?? (node.oneOf as Json[] | undefined)?.[0]?.$ref;
  return typeof direct === 'string' ? (schemas[direct.split('/').pop() as string] as Json) : node;
}

/** Enum values of a property (through $ref/oneOf), or undefined. */
function enumOf(node: Json): unknown[] | undefined {
  return (resolve(node).enum as unknown[] | undefined) ?? (node.enum as unknown[] | undefined);
}

function compare(t: ExecutionContext, name: string, ours: Json, doc: Json): void {
  const ourProps = ours.properties as Record<string, Json>;
  const docProps = doc.properties as Record<string, Json>;
  t.deepEqual(Object.keys(ourProps).sort(), Object.keys(docProps).sort(), `${name} properties`);
  t.deepEqual(
    [...((ours.required as string[]) ?? [])].sort(),
    [...((doc.required as string[]) ?? [])].sort(),
    `${name} required`,
  );
  t.is(ours.additionalProperties, doc.additionalProperties, `${name} additionalProperties`);
  for (const [prop, docProp] of Object.entries(docProps)) {
    const docEnum = enumOf(docProp);
    if (docEnum) t.deepEqual(enumOf(ourProps[prop] as Json), docEnum, `${name}.${prop} enum`);
    const items = docProp.items as Json | undefined;
    const ourItems = (ourProps[prop] as Json).items as Json | undefined;
    if (items?.$ref && ourItems) compare(t, `${name}.${prop}[]`, ourItems, resolve(items));
  }
}

for (const [name, ours] of Object.entries(CORE_SCHEMAS)) {
  test(`${name} matches the official document`, (t) => {
    const doc = schemas[name];
    if (!doc) return t.fail(`${name} is not in the document`);
    compare(t, name, ours as Json, doc);
  });
}
