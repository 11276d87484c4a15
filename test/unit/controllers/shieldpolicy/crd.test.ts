/* eslint-disable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- walking a schema */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { GENERATORS, renderCrd } from '../../../../hack/generate-crds.js';
import { buildShieldPolicyCrd } from '../../../../hack/crds/shieldpolicy.js';
import { documentEnumNames } from '../../../../hack/crds/document-bounds.js';
import {
  DdosExecutionMode,
  DdosSensitivity,
  PayloadLimitAction,
  PlanType,
  WafExecutionMode,
  type EnumTable,
} from '../../../../src/controllers/shieldpolicy/enums.js';
import { ACCOUNT_REF_SCHEMA } from '../../../../src/controllers/shared/account-schema.js';
import { ownershipStatusSchema } from '../../../../src/controllers/shared/ownership-schema.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking a schema
type Json = Record<string, any>;

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const gen = GENERATORS.find((g) => g.path.endsWith('shieldpolicies.yaml'));

function root(): Json {
  const crd: Json = buildShieldPolicyCrd();
  return crd.spec.versions[0].schema.openAPIV3Schema;
}

function at(path: string): Json {
  let node: Json = root();
  for (const part of path.split('.')) {
    node = part === '[]' ? node.items : node.properties[part];
  }
  return node;
}

test('the ShieldPolicy CRD is generated and the committed file equals the output (run hack/generate-crds.ts)', (t) => {
  t.truthy(
    gen,
    'hack/generate-crds.ts has a generator for crds/cdn.operator.io_shieldpolicies.yaml',
  );
  const committed = readFileSync(join(ROOT, 'crds/cdn.operator.io_shieldpolicies.yaml'), 'utf8');
  t.true(committed.startsWith('# GENERATED FILE'), 'the committed CRD is the generated one');
  t.is(committed, renderCrd(gen!));
});

test('kubectl explain has a description on every field of the committed CRD (spec, status, apiVersion, kind)', (t) => {
  const missing: string[] = [];
  const walk = (node: Json, path: string): void => {
    for (const [name, child] of Object.entries((node.properties ?? {}) as Json)) {
      if (path === '' && name === 'metadata') continue; // described by the apiserver (ObjectMeta)
      if (!child.description) missing.push(`${path}.${name}`);
      walk(child, `${path}.${name}`);
    }
    if (node.items) walk(node.items, `${path}[]`);
  };
  // The shipped file, as kubectl explain reads it from the apiserver.
  const committed: Json = parse(
    readFileSync(join(ROOT, 'crds/cdn.operator.io_shieldpolicies.yaml'), 'utf8'),
  );
  walk(committed.spec.versions[0].schema.openAPIV3Schema, '');
  t.deepEqual(missing, []);
});

const ENUMS: Array<[string, EnumTable<string>, string]> = [
  ['spec.waf.executionMode', WafExecutionMode, 'WAFExecutionMode'],
  ['spec.waf.requestBodyLimitAction', PayloadLimitAction, 'WAFPayloadLimitAction'],
  ['spec.waf.responseBodyLimitAction', PayloadLimitAction, 'WAFPayloadLimitAction'],
  ['spec.ddos.shieldSensitivity', DdosSensitivity, 'DDoSShieldSensitivity'],
  ['spec.ddos.executionMode', DdosExecutionMode, 'DDoSExecutionMode'],
  ['status.planType', PlanType, 'ShieldPlanType'],
];

for (const [path, table, docName] of ENUMS) {
  test(`enum names match the controller's enums and the document: ${path}`, (t) => {
    t.deepEqual(at(path).enum, [...table.names]);
    t.deepEqual(at(path).enum, documentEnumNames('shield', docName));
  });
}

test('number formats come from the official document', (t) => {
  t.like(at('spec.learningModeUntil'), { type: 'string', format: 'date-time' });
  t.like(at('spec.waf.profileId'), { type: 'integer', format: 'int32', minimum: 0 });
  t.like(at('spec.ddos.challengeWindow'), { type: 'integer', format: 'int32', minimum: 0 });
});

test('the operator keeps its own list and length bounds', (t) => {
  t.like(at('spec.waf.disabledRules'), { maxItems: 1000, 'x-kubernetes-list-type': 'set' });
  t.like(at('spec.waf.disabledRules.[]'), { minLength: 1, maxLength: 64 });
  t.like(at('spec.waf.requestIgnoredHeaders.[]'), { maxLength: 256 });
  t.like(at('spec.waf.engineConfig'), { maxItems: 200, 'x-kubernetes-list-map-keys': ['name'] });
  t.like(at('spec.ruleMetrics'), { maxItems: 50 });
  t.like(at('spec.pullZoneId'), { format: 'int64', minimum: 1 });
});

test('spec rules, required keys and shared fragments', (t) => {
  const spec = at('spec');
  t.deepEqual(
    spec['x-kubernetes-validations'].map((r: Json) => r.rule),
    [
      '!(has(self.accountRef) && has(self.credentialsRef))',
      'has(self.pullZoneRef) != has(self.pullZoneId)',
    ],
  );
  t.is(spec.required, undefined);
  t.deepEqual(spec.properties.accountRef, ACCOUNT_REF_SCHEMA);
  t.deepEqual(spec.properties.credentialsRef.required, ['name', 'key']);
  t.like(spec.properties.deletionPolicy, { enum: ['Reset', 'Orphan'], default: 'Reset' });
  t.is(spec.properties.adoption, undefined, 'a shield zone is found by its pull zone, not adopted');
  t.deepEqual(at('status.ownership'), ownershipStatusSchema);
});

test('printer columns', (t) => {
  const crd: Json = buildShieldPolicyCrd();
  t.deepEqual(
    crd.spec.versions[0].additionalPrinterColumns.map((c: Json) => `${c.name}:${c.jsonPath}`),
    [
      "READY:.status.conditions[?(@.type=='Ready')].status",
      "SYNCED:.status.conditions[?(@.type=='Synced')].status",
      'ZONE:.status.shieldZoneId',
      'AGE:.metadata.creationTimestamp',
    ],
  );
});
