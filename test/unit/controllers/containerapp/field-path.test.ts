import test from 'ava';
import {
  specPathForField,
  tokenizeField,
} from '../../../../src/controllers/containerapp/field-path.js';
import { envKey } from '../../../../src/controllers/containerapp/mapping.js';
import { baseSpec, desiredOf } from './fixtures.js';

const spec = baseSpec();
spec.containerTemplates[0]!.endpoints!.push({
  displayName: 'admin',
  cdn: { pullZoneRef: { name: 'demo-zone' }, portMappings: [{ containerPort: 81 }] },
});
spec.containerTemplates[0]!.environmentVariables!.push({
  name: 'TOKEN',
  valueFrom: { secretKeyRef: { name: 's', key: 'token' } },
});
const desired = desiredOf(spec, {
  env: new Map([[envKey('web', 'TOKEN'), 'sekrit']]),
  secretEnv: new Set([envKey('web', 'TOKEN')]),
  pullZones: new Map([['demo-zone', 77]]),
});
const map = specPathForField(desired, spec);

const cases: { field: string; expected: string; reason: string }[] = [
  {
    field: 'containerTemplates[0].imageTag',
    expected: 'spec.containerTemplates[web].imageTag',
    reason: 'container index -> name',
  },
  {
    field: 'containerTemplates[1].imageName',
    expected: 'spec.containerTemplates[worker].imageName',
    reason: 'second container',
  },
  {
    field: 'ContainerTemplates[0].ImageTag',
    expected: 'spec.containerTemplates[web].imageTag',
    reason: 'PascalCase from the platform',
  },
  {
    field: '$.volumes[0].size',
    expected: 'spec.volumes[data].sizeGigabytes',
    reason: 'JSON path prefix stripped, volume index -> name, the spec name of size',
  },
  {
    field: '/containerTemplates/0/name',
    expected: 'spec.containerTemplates[web].name',
    reason: 'JSON pointer form',
  },
  {
    field: 'containerTemplates[0].endpoints[1].cdn.portMappings[0].containerPort',
    expected: 'spec.containerTemplates[web].endpoints[admin].cdn.portMappings[0].containerPort',
    reason: 'endpoint index -> displayName, port mappings keep indices',
  },
  {
    field: 'containerTemplates[0].endpoints[1].cdn.pullZoneId',
    expected: 'spec.containerTemplates[web].endpoints[admin].cdn.pullZoneRef',
    reason: 'a referenced zone is reported at the reference',
  },
  {
    field: 'containerTemplates[0].endpoints[0].cdn.pullZoneId',
    expected: 'spec.containerTemplates[web].endpoints[http].cdn.pullZoneId',
    reason: 'a direct zone id stays pullZoneId',
  },
  {
    field: 'containerTemplates[0].endpoints[0].cdn.isSslEnabled',
    expected: 'spec.containerTemplates[web].endpoints[http].cdn.sslEnabled',
    reason: "the platform's isSslEnabled is the spec's sslEnabled",
  },
  {
    field: 'containerTemplates[0].environmentVariables[1].value',
    expected: 'spec.containerTemplates[web].environmentVariables[TOKEN].value',
    reason: 'variable index -> name',
  },
  {
    field: 'containerTemplates[0].volumeMounts[0].mountPath',
    expected: 'spec.containerTemplates[web].volumeMounts[/data].mountPath',
    reason: 'mount index -> mount path',
  },
  {
    field: 'containerTemplates[7].name',
    expected: 'spec.containerTemplates[7].name',
    reason: 'unknown index kept as is',
  },
  { field: 'autoScaling.min', expected: 'spec.autoScaling.min', reason: 'plain object path' },
  { field: '', expected: 'spec', reason: 'whole body' },
  { field: 'body', expected: 'spec', reason: "the simulator's whole-body marker" },
];

for (const c of cases) {
  test(`specPathForField ${JSON.stringify(c.field)} (${c.reason})`, (t) => {
    t.is(map(c.field), c.expected);
  });
}

test('tokenizeField splits names and indices', (t) => {
  t.deepEqual(tokenizeField('a[0].B.c[12]'), [
    { name: 'a' },
    { index: 0 },
    { name: 'b' },
    { name: 'c' },
    { index: 12 },
  ]);
});

test('the mapper keeps no secret value', (t) => {
  // The mapper travels inside thrown errors; it must hold names only.
  const m = specPathForField(desired, spec);
  t.false(JSON.stringify(m.toString()).includes('sekrit'));
  t.is(
    m('containerTemplates[0].environmentVariables[1]'),
    'spec.containerTemplates[web].environmentVariables[TOKEN]',
  );
});
