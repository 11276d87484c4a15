/**
 * The v1beta1 conventions every CRD keeps (docs/api.md), checked on the generated files: enum
 * values are UpperCamel strings (acronyms in capitals), every list of objects in a spec says how
 * it merges (`x-kubernetes-list-type`), and every kind is served at v1beta1 in its family's
 * group. A new field that breaks one fails here, before it can be frozen.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { API_VERSION } from '../../../src/api-group.js';
import { apiGroupOf } from '../../../src/controllers/kind-names.js';
import { KINDS } from '../../../src/controllers/kinds.js';
import { REPO_ROOT } from '../../support/openapi-docs.js';

type Schema = {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  'x-kubernetes-list-type'?: string;
};

interface Crd {
  spec: {
    group: string;
    names: { kind: string };
    versions: { name: string; schema: { openAPIV3Schema: Schema } }[];
  };
}

/** Each node of `schema` with its path (`.spec.rules[].action`). */
function* nodesOf(schema: Schema, path = ''): Generator<[string, Schema]> {
  yield [path, schema];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    yield* nodesOf(child, `${path}.${name}`);
  }
  if (schema.items) yield* nodesOf(schema.items, `${path}[]`);
  if (typeof schema.additionalProperties === 'object') {
    yield* nodesOf(schema.additionalProperties, `${path}{}`);
  }
}

async function readCrds(): Promise<Crd[]> {
  const dir = join(REPO_ROOT, 'crds');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  return Promise.all(
    files.map(async (f) => parse(await readFile(join(dir, f), 'utf8'), { version: '1.1' }) as Crd),
  );
}

/** UpperCamel, acronyms allowed in capitals (`BeginsWith`, `TCP`, `SyslogRFC5424`, `A`). */
const UPPER_CAMEL = /^[A-Z][A-Za-z0-9]*$/;

test('every enum value is an UpperCamel string', async (t) => {
  const off: string[] = [];
  for (const crd of await readCrds()) {
    for (const [path, node] of nodesOf(crd.spec.versions[0]!.schema.openAPIV3Schema)) {
      for (const v of node.enum ?? []) {
        if (typeof v !== 'string' || !UPPER_CAMEL.test(v)) {
          off.push(`${crd.spec.names.kind}${path}: ${JSON.stringify(v)}`);
        }
      }
    }
  }
  t.deepEqual(off, []);
});

test('every list of objects in a spec declares its list type', async (t) => {
  const undeclared: string[] = [];
  for (const crd of await readCrds()) {
    const root = crd.spec.versions[0]!.schema.openAPIV3Schema;
    for (const [path, node] of nodesOf(root.properties?.spec ?? {}, '.spec')) {
      if (node.type === 'array' && node.items?.type === 'object' && !node['x-kubernetes-list-type']) {
        undeclared.push(`${crd.spec.names.kind}${path}`);
      }
    }
  }
  t.deepEqual(undeclared, []);
});

test('every kind is served at v1beta1 only, in the group of its family', async (t) => {
  const crds = await readCrds();
  t.is(crds.length, KINDS.length);
  for (const crd of crds) {
    const kind = KINDS.find((k) => k.kind === crd.spec.names.kind);
    t.truthy(kind, crd.spec.names.kind);
    t.is(crd.spec.group, apiGroupOf(kind!), crd.spec.names.kind);
    t.deepEqual(
      crd.spec.versions.map((v) => v.name),
      [API_VERSION],
      crd.spec.names.kind,
    );
  }
});
