import test from 'ava';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bareCrdOf,
  MINIMAL_GROUP,
  countCelRules,
  crdFactsOf,
  minimalCrdOf,
  readCrds,
} from '../../../bench/lib/minimal-crd.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

test('countCelRules counts every rule at any depth, in lists too', (t) => {
  const schema = {
    'x-kubernetes-validations': [{ rule: 'a' }, { rule: 'b' }],
    properties: {
      spec: {
        properties: { list: { items: { 'x-kubernetes-validations': [{ rule: 'c' }] } } },
      },
      other: { anyOf: [{ 'x-kubernetes-validations': [{ rule: 'd' }] }] },
    },
  };
  t.is(countCelRules(schema), 4);
  t.is(countCelRules({ properties: {} }), 0);
});

test('every CRD in crds/ yields a minimal CRD with the same names and scope, free-form spec and status', async (t) => {
  const crds = await readCrds(join(ROOT, 'crds'));
  t.true(crds.length >= 5);
  for (const facts of crds) {
    const minimal = minimalCrdOf(facts) as {
      metadata: { name: string };
      spec: {
        group: string;
        scope: string;
        names: { kind: string; plural: string };
        versions: { name: string; schema: { openAPIV3Schema: Record<string, unknown> } }[];
      };
    };
    t.is(minimal.metadata.name, `${facts.plural}.${MINIMAL_GROUP}`);
    t.is(minimal.spec.names.kind, facts.kind);
    t.is(minimal.spec.scope, facts.namespaced ? 'Namespaced' : 'Cluster');
    t.is(minimal.spec.versions[0]?.name, facts.version);
    t.is(countCelRules(minimal.spec.versions), 0);
    t.true(facts.bytes > 0);
  }
  // The figure the report shows must see our rules: PullZoneConfig has CEL rules.
  const pzc = crds.find((c) => c.kind === 'PullZoneConfig');
  t.true((pzc?.celRules ?? 0) > 0);
});

test('crdFactsOf reads one CRD document and passes over any other document', (t) => {
  const crd = [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata: { name: gadgets.gadgets.cdn.operator.io }',
    'spec:',
    '  group: gadgets.cdn.operator.io',
    '  scope: Namespaced',
    '  names: { kind: Gadget, plural: gadgets }',
    '  versions:',
    '    - { name: v1beta1, served: true, storage: true, schema: { openAPIV3Schema: { x-kubernetes-validations: [{ rule: "true" }] } } }',
  ].join('\n');
  const facts = crdFactsOf(crd, 'gadget.yaml');
  t.like(facts, {
    kind: 'Gadget',
    plural: 'gadgets',
    group: 'gadgets.cdn.operator.io',
    version: 'v1beta1',
    namespaced: true,
    celRules: 1,
  });
  t.is(crdFactsOf('apiVersion: v1\nkind: Namespace\n', 'ns.yaml'), undefined);
});

test('the bare copy of our CRD keeps every type, limit and property (one named description too) and drops every description and CEL rule', (t) => {
  const facts = crdFactsOf(
    [
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata: {name: things.x.io}',
      'spec:',
      '  group: x.io',
      '  scope: Namespaced',
      '  names: {kind: Thing, plural: things}',
      '  versions:',
      '  - name: v1',
      '    served: true',
      '    storage: true',
      '    subresources: {status: {}}',
      '    schema:',
      '      openAPIV3Schema:',
      '        type: object',
      '        description: A thing.',
      '        x-kubernetes-validations: [{rule: "true"}]',
      '        properties:',
      '          spec:',
      '            type: object',
      '            properties:',
      '              description: {type: string, maxLength: 9, description: The text.}',
      '              list:',
      '                type: array',
      '                items: {type: object, x-kubernetes-validations: [{rule: "true"}], properties: {n: {type: integer, minimum: 1}}}',
    ].join('\n'),
    'thing',
  )!;
  const bare = bareCrdOf(facts, 'things.bare.x.io') as {
    metadata: { name: string };
    spec: { group: string; versions: { subresources: unknown; schema: unknown }[] };
  };
  t.is(bare.metadata.name, 'things.things.bare.x.io');
  t.is(bare.spec.group, 'things.bare.x.io');
  t.deepEqual(bare.spec.versions[0]?.subresources, { status: {} });
  t.deepEqual(bare.spec.versions[0]?.schema, {
    openAPIV3Schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            description: { type: 'string', maxLength: 9 },
            list: {
              type: 'array',
              items: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } },
            },
          },
        },
      },
    },
  });
  t.is(countCelRules(bare.spec.versions[0]?.schema), 0);
});
