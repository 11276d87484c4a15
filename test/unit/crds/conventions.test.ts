/**
 * The v1beta1 conventions every CRD keeps (docs/api.md), checked on the generated files: enum
 * values are UpperCamel strings (acronyms in capitals), every list of objects in a spec says how
 * it merges (`x-kubernetes-list-type`), and every kind is served at v1beta1 in its family's
 * group. A new field that breaks one fails here, before it can be frozen.
 */
import test, { type ExecutionContext } from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { API_VERSION } from '../../../src/api-group.js';
import type { LegacyFieldMove } from '../../../src/controllers/kind-module.js';
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

/** The schema node at a dotted path with `[]` (the CRD's spec and status), if there is one. */
function nodeAt(root: Schema, path: string): Schema | undefined {
  let node: Schema | undefined = root;
  for (const part of path.replace(/\[\]/g, '.[]').split('.').filter(Boolean)) {
    node = part === '[]' ? node?.items : node?.properties?.[part];
  }
  return node;
}

/** The constants a move sets beside its value (`also`) land on the CRD, with a value it accepts. */
function assertAlsoLands(
  t: ExecutionContext,
  kind: string,
  root: Schema,
  move: LegacyFieldMove,
): void {
  for (const [key, value] of Object.entries(move.also ?? {})) {
    const path = `${move.to.slice(0, move.to.lastIndexOf('.'))}.${key}`;
    const sibling = nodeAt(root, path);
    t.truthy(sibling, `${kind} ${path} exists`);
    if (sibling?.enum) t.true(sibling.enum.includes(value), `${kind} ${path}: ${String(value)}`);
  }
}

test('every field move cdnctl migrate makes lands on a field of the CRD, and leaves none behind', async (t) => {
  const crds = await readCrds();
  for (const kind of KINDS) {
    const crd = crds.find((c) => c.spec.names.kind === kind.kind);
    const root = crd?.spec.versions[0]?.schema.openAPIV3Schema ?? {};
    for (const move of kind.legacyMoves ?? []) {
      const to = nodeAt(root, move.to);
      t.truthy(to, `${kind.kind} ${move.to} exists`);
      if (move.to.startsWith(`${move.from}.`)) {
        t.is(nodeAt(root, move.from)?.type, 'object', `${kind.kind} ${move.from} is a block now`);
      } else if (move.from !== move.to) {
        t.falsy(nodeAt(root, move.from), `${kind.kind} ${move.from} is gone`);
      }
      assertAlsoLands(t, kind.kind, root, move);
      if (!to?.enum) continue;
      for (const [old, now] of Object.entries(move.values ?? {})) {
        t.true(to.enum.includes(now), `${kind.kind} ${move.to}: ${now} is accepted`);
        if (old !== now) t.false(to.enum.includes(old), `${kind.kind} ${move.to}: ${old} is refused`);
      }
    }
  }
});
