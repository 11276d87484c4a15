/**
 * `kubectl explain` shows a description for every field of every kind: the test walks each
 * shipped CRD's openAPIV3Schema (spec and status, nested objects, list items and map values)
 * and names every property without one. Root `metadata` is described by the apiserver.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { crdFileOf } from '../../../src/controllers/kind-names.js';
import { KINDS } from '../../../src/controllers/kinds.js';
import { rootSchema, undescribed, type Json } from '../../support/crds.js';
import { ROOT } from '../packaging/tools.js';

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
