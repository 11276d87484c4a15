/* eslint-disable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- walking a schema */
import test from 'ava';
import { documentEnumNames } from '../../../../hack/crds/document-bounds.js';
import {
  DdosExecutionMode,
  DdosSensitivity,
  PayloadLimitAction,
  PlanType,
  WafExecutionMode,
  type EnumTable,
} from '../../../../src/controllers/shieldpolicy/enums.js';
import { SHIELD_POLICY } from '../../../../src/controllers/shieldpolicy/kind.js';
import { builtCrd, rootSchema, schemaAt, type Json } from '../../../support/crds.js';

const crd = await builtCrd(SHIELD_POLICY);

function at(path: string): Json {
  return schemaAt(rootSchema(crd), path);
}

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
  t.like(at('spec.learningModeEndTime'), { type: 'string', format: 'date-time' });
  t.like(at('spec.waf.profileId'), { type: 'integer', format: 'int32', minimum: 0 });
  t.like(at('spec.ddos.challengeWindowSeconds'), { type: 'integer', format: 'int32', minimum: 0 });
});

test('the operator keeps its own list and length bounds', (t) => {
  t.like(at('spec.waf.disabledRules'), { maxItems: 1000, 'x-kubernetes-list-type': 'set' });
  t.like(at('spec.waf.disabledRules.[]'), { minLength: 1, maxLength: 64 });
  t.like(at('spec.waf.requestIgnoredHeaders.[]'), { maxLength: 256 });
  t.like(at('spec.waf.engineConfig'), { maxItems: 200, 'x-kubernetes-list-map-keys': ['name'] });
  t.like(at('spec.ruleMetrics'), { maxItems: 50 });
  t.like(at('spec.pullZoneId'), { format: 'int64', minimum: 1 });
});

test('waf.customRuleOrder is ordered (atomic, not a set a merge may reorder), each id once', (t) => {
  const order = at('spec.waf.customRuleOrder');
  t.is(order['x-kubernetes-list-type'], 'atomic');
  t.deepEqual(
    order['x-kubernetes-validations'].map((r: Json) => r.rule),
    ['self.all(x, self.exists_one(y, y == x))'],
  );
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
  // credentialsRef.key is optional (defaults to apiKey) as in every kind.
  t.deepEqual(spec.properties.credentialsRef.required, ['name']);
  t.like(spec.properties.deletionPolicy, { enum: ['Reset', 'Orphan'], default: 'Reset' });
  t.is(spec.properties.adoption, undefined, 'a shield zone is found by its pull zone, not adopted');
});

test('printer columns', (t) => {
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
