/**
 * `kubectl explain` shows a description for every field of every kind: the test walks each
 * shipped CRD's openAPIV3Schema (spec and status, nested objects, list items and map values)
 * and names every property without one. Root `metadata` is described by the apiserver.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { crdFileOf } from '../../../src/controllers/kind-module.js';
import { KINDS } from '../../../src/controllers/kinds.js';
import { ROOT } from '../packaging/tools.js';

type Json = Record<string, unknown>;

/** Paths (`.spec.edgeRules[].extraActions`) of the properties under `node` without a description. */
function undescribed(node: Json, path = ''): string[] {
  const missing: string[] = [];
  const properties = (node.properties ?? {}) as Record<string, Json>;
  for (const [name, child] of Object.entries(properties)) {
    if (path === '' && name === 'metadata') continue;
    const at = `${path}.${name}`;
    if (typeof child.description !== 'string' || child.description.trim() === '') missing.push(at);
    missing.push(...undescribed(child, at));
  }
  if (node.items && typeof node.items === 'object') missing.push(...undescribed(node.items as Json, `${path}[]`));
  const values = node.additionalProperties;
  if (values && typeof values === 'object') missing.push(...undescribed(values as Json, `${path}{}`));
  return missing;
}

function rootSchema(crd: Json): Json {
  const versions = (crd.spec as { versions: { schema: { openAPIV3Schema: Json } }[] }).versions;
  return versions[0]!.schema.openAPIV3Schema;
}

for (const kind of KINDS) {
  test(`${kind.kind}: every field of the shipped CRD has a description (kubectl explain)`, async (t) => {
    const crd = parse(await readFile(join(ROOT, crdFileOf(kind)), 'utf8'), { version: '1.1' }) as Json;
    const root = rootSchema(crd);
    t.truthy(root.description, 'the kind itself');
    t.deepEqual(undescribed(root), []);
  });
}

test('the walk finds fields without a description at every depth (items, map values)', (t) => {
  const schema: Json = {
    properties: {
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        description: 'd',
        properties: {
          rules: {
            type: 'array',
            description: 'd',
            items: { type: 'object', properties: { extra: { type: 'array' } } },
          },
          byName: {
            type: 'object',
            description: 'd',
            additionalProperties: { type: 'object', properties: { when: { type: 'string' } } },
          },
        },
      },
      status: { type: 'object' },
    },
  };
  t.deepEqual(undescribed(schema), ['.spec.rules[].extra', '.spec.byName{}.when', '.status']);
});
