import test from 'ava';
import {
  SETTING_FIELDS,
  secretRefName,
} from '../../../../src/controllers/pullzoneconfig/fields.js';
import { parameterChecks } from '../../../../src/controllers/pullzoneconfig/edge-rules-schema.js';
import { ACTION_PARAMETERS } from '../../../../src/controllers/pullzoneconfig/edge-rules-types.js';
import { PULL_ZONE_CONFIG } from '../../../../src/controllers/pullzoneconfig/kind.js';
import { shippedCrd, type Json as Schema } from '../../../support/crds.js';

const crd = shippedCrd(PULL_ZONE_CONFIG);
const version = crd.spec.versions[0];
const spec: Schema = version.schema.openAPIV3Schema.properties.spec;
const settings: Schema = spec.properties.settings.properties;

test('names, short name, category, status subresource and printer columns', (t) => {
  t.is(crd.metadata.name, 'pullzoneconfigs.pullzones.cdn.operator.io');
  t.deepEqual(crd.spec.names.shortNames, ['pzc']);
  t.deepEqual(crd.spec.names.categories, ['cdn']);
  t.deepEqual(version.subresources, { status: {} });
  t.deepEqual(
    (version.additionalPrinterColumns as Schema[]).map((c) => c.name as string),
    ['READY', 'SYNCED', 'ID', 'CDN-HOSTNAME', 'AGE'],
  );
});

test('every setting of the table is in spec.settings, nothing else', (t) => {
  const expected = SETTING_FIELDS.map((f) => (f.secret ? secretRefName(f) : f.spec)).sort();
  t.deepEqual(Object.keys(settings).sort(), expected);
});

test('limits are enforced in the schema and stated in the description', (t) => {
  for (const f of SETTING_FIELDS.filter((x) => x.minimum !== undefined)) {
    const s = settings[f.spec];
    t.is(s.minimum, f.minimum, f.api);
    t.is(s.maximum, f.maximum, f.api);
    t.regex(String(s.description), /Range: |Allowed values: /, f.api);
  }
  t.like(settings.originShieldMaxConcurrentRequests, {
    minimum: 1,
    maximum: 10000,
    format: 'int32',
  });
  t.like(settings.optimizerImageQuality, { minimum: 1, maximum: 100 });
  t.like(settings.optimizerDesktopMaxWidth, { minimum: 0, maximum: 5000 });
});

test('enums are exposed by name', (t) => {
  t.deepEqual(settings.ipFamilyPolicy.enum, [
    'IPv4Only',
    'DualStack',
    'DualStackPreferIPv6',
    'IPv6Only',
  ]);
  t.deepEqual(settings.type.enum, ['Premium', 'Volume']);
  t.deepEqual(settings.permaCacheType.enum, ['Automatic', 'Manual']);
  t.is(settings.logForwardingProtocol.type, 'string');
});

test('secret settings are Secret references, not strings', (t) => {
  t.is(settings.awsSigningSecret, undefined);
  t.deepEqual(settings.awsSigningSecretAccessKeySecretRef.required, ['name', 'key']);
});

function walk(node: unknown, path: string, visit: (n: Schema, p: string) => void): void {
  if (!node || typeof node !== 'object') return;
  const n = node as Schema;
  visit(n, path);
  for (const [k, v] of Object.entries((n.properties ?? {}) as Schema))
    walk(v, `${path}.${k}`, visit);
  if (n.items) walk(n.items, `${path}[]`, visit);
  if (typeof n.additionalProperties === 'object') walk(n.additionalProperties, `${path}{}`, visit);
}

test('structural: every node has a type, no preserve-unknown-fields, descriptions on settings', (t) => {
  walk(version.schema.openAPIV3Schema, '', (n, p) => {
    t.truthy(n.type, `${p} has a type`);
    t.falsy(n['x-kubernetes-preserve-unknown-fields'], `${p} does not preserve unknown fields`);
  });
  for (const [name, s] of Object.entries(settings)) t.truthy((s as Schema).description, name);
});

test('deletionPolicy has no schema default (Orphan for adopted zones is computed); hostname certificate rules are CEL', (t) => {
  t.is(spec.properties.deletionPolicy.default, undefined);
  t.deepEqual(spec.properties.deletionPolicy.enum, ['Delete', 'Orphan']);
  const cert = spec.properties.hostnames.items.properties.certificate;
  t.is(cert['x-kubernetes-validations'].length, 2);
});

test('every string and list setting is size-bounded, so huge input is refused at apply time', (t) => {
  const unbounded: string[] = [];
  for (const [name, schema] of Object.entries(settings)) {
    if (schema.type === 'string' && schema.enum === undefined && schema.maxLength === undefined)
      unbounded.push(name);
    if (schema.type === 'array' && schema.items?.type === 'string') {
      if (schema.maxItems === undefined || schema.items.maxLength === undefined)
        unbounded.push(name);
    }
  }
  t.deepEqual(unbounded, []);
  t.is(settings.originUrl.maxLength, 2048);
});

test('edge rule actions carry one parameter check per (parameter, required, kind), covering every action type (issue 32: rules are planned per write)', (t) => {
  const action = spec.properties.edgeRules.items.properties.action;
  const rules = action['x-kubernetes-validations'] as Array<{
    rule: string;
    messageExpression?: string;
  }>;
  const checks = parameterChecks();
  // Beside the parameter checks one rule, without a pattern, pairs RunEdgeScript's parameter1
  // with its scriptRef (issue 46).
  const params = rules.filter((r) => r.messageExpression !== undefined);
  t.is(params.length, checks.length);
  t.true(params.length <= 7, `${params.length} parameter rules per action`);
  t.is(rules.length, params.length + 1, 'and the scriptRef rule');
  const patterns = rules.map((r) => (r.rule.match(/\.matches\(/g) ?? []).length);
  t.true(
    patterns.reduce((a, b) => a + b, 0) <= 5,
    `${patterns.join('+')} patterns compiled per action`,
  );
  // Every (type, parameter) of the table is checked exactly once, by a rule that names the type.
  for (const [type, params] of Object.entries(ACTION_PARAMETERS)) {
    for (const param of Object.keys(params)) {
      const covering = checks.filter((c) => c.param === param && c.types.includes(type));
      t.is(covering.length, 1, `${type}.${param}`);
    }
  }
  for (const r of params) t.regex(r.messageExpression ?? '', /^self\.type \+ ': parameter[12] /);
});
