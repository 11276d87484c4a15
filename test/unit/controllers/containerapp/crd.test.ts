/* eslint-disable @typescript-eslint/no-unsafe-argument -- walking a schema */
import test from 'ava';
import { documentBounds } from '../../../../hack/crds/document-bounds.js';
import { CONTAINER_APP } from '../../../../src/controllers/containerapp/kind.js';
import {
  ENDPOINT_TYPE_NAMES,
  LOG_TYPE_NAMES,
} from '../../../../src/controllers/containerapp/wire-enums.js';
import { legacyValuesOf } from '../../../../src/controllers/kit/enum-spelling.js';
import { builtCrd, rootSchema, schemaAt, type Json } from '../../../support/crds.js';

const crd = await builtCrd(CONTAINER_APP);

function spec(): Json {
  return rootSchema(crd).properties.spec as Json;
}

function at(path: string): Json {
  return schemaAt(spec(), path);
}

const BOUNDS: Array<[string, Json]> = [
  ['terminationGracePeriodSeconds', { minimum: 1, maximum: 300 }],
  ['autoScaling.max', { minimum: 1, maximum: 1000 }],
  ['volumes.[].sizeGigabytes', { minimum: 1, maximum: 100 }],
  ['containerTemplates.[].probes.startup.initialDelaySeconds', { minimum: 1, maximum: 3600 }],
  ['containerTemplates.[].probes.liveness.failureThreshold', { minimum: 1, maximum: 1000 }],
  ['containerTemplates.[].name', { minLength: 1, maxLength: 50 }],
  [
    'containerTemplates.[].endpoints.[].cdn.stickySessions.sessionHeaders',
    { minItems: 1, maxItems: 3 },
  ],
];

for (const [path, bounds] of BOUNDS) {
  test(`bound from the official document: ${path}`, (t) => {
    t.like(at(path), bounds);
  });
}

test('document patterns are anchored (.NET matches whole values), without RE2-less look-aheads', (t) => {
  t.is(
    at('containerTemplates.[].imageTag').pattern,
    '^(?:[a-zA-Z0-9]+(?:[._-]{1,2}[a-zA-Z0-9]+)*)$',
  );
  const mount = at('containerTemplates.[].volumeMounts.[].mountPath');
  t.is(mount.pattern, '^(?:/([a-zA-Z0-9._-]+/?)+)$');
  t.deepEqual(documentBounds('mc', 'Protocol', ['enum']), { enum: ['tcp', 'udp', 'sctp'] });
  const protocols = at('containerTemplates.[].endpoints.[].cdn.portMappings.[].protocols.[]');
  t.deepEqual(protocols.enum, ['TCP', 'UDP', 'SCTP'], 'as core Kubernetes spells them');
});

test('expectedStatusCode is an HTTP status code (integer 100-599), not a platform name', (t) => {
  const node = at('containerTemplates.[].probes.readiness.httpGet.response.expectedStatusCode');
  t.like(node, { type: 'integer', minimum: 100, maximum: 599 });
  t.is(node['x-kubernetes-int-or-string'], undefined);
});

test('no CEL rule is unbounded in cost: every rule sits on a node the kind already had', (t) => {
  const rules: string[] = [];
  const walk = (node: Json, path: string): void => {
    for (const r of (node['x-kubernetes-validations'] ?? []) as Json[])
      rules.push(`${path}: ${r.rule}`);
    for (const [name, child] of Object.entries((node.properties ?? {}) as Json))
      walk(child, `${path}.${name}`);
    if (node.items) walk(node.items, `${path}[]`);
  };
  walk(spec(), 'spec');
  t.false(
    rules.some((r) => r.includes('matches(') || r.includes('string(self)')),
    rules.join('\n'),
  );
});

test('common fields come from the shared fragments', (t) => {
  const s = spec();
  // No schema default: the effective policy depends on adoption (status.ownership).
  t.like(s.properties.deletionPolicy, { enum: ['Delete', 'Orphan'] });
  t.is(s.properties.deletionPolicy?.default, undefined);
  t.deepEqual(s.properties.credentialsRef.required, ['name']);
  const id = s.properties.adoption.properties.id;
  t.is(id['x-kubernetes-validations'][0].rule, 'self == oldSelf');
  t.is(id.type, 'string', 'an application id is a string');
  t.deepEqual(s.required, ['name', 'autoScaling', 'containerTemplates']);
});

test('logForwarding: enums from the official document, a port range, enabled defaults to true', (t) => {
  // The document's values, spelled UpperCamel with acronyms in capitals (kit/enum-spelling.ts).
  const wire = documentBounds('mc', 'CreateLogForwardingRequest.type', ['enum']).enum as string[];
  t.deepEqual(
    at('logForwarding.type').enum,
    wire.map((w) => legacyValuesOf(LOG_TYPE_NAMES)[w]),
  );
  t.deepEqual(at('logForwarding.type').enum, ['SyslogUDP', 'SyslogTCP']);
  t.deepEqual(at('logForwarding.format').enum, ['SyslogRFC3164', 'SyslogRFC5424']);
  t.like(at('logForwarding.port'), { minimum: 1, maximum: 65535 });
  t.is(at('logForwarding.enabled').default, true);
  t.deepEqual(at('logForwarding').required, ['type', 'endpoint', 'port', 'format']);
  t.deepEqual(at('logForwarding.tokenSecretRef').required, ['name', 'key']);
  const status = rootSchema(crd).properties.status as Json;
  t.truthy(schemaAt(status, 'logForwarding.tokenFingerprint'));
  t.is(schemaAt(status, 'logForwarding').properties.token, undefined, 'never a token in status');
});

test('an endpoint is cdn or anycast: anycast takes port mappings and the document IP version', (t) => {
  const endpoint = at('containerTemplates.[].endpoints.[]');
  t.deepEqual(
    (endpoint['x-kubernetes-validations'] as Json[]).map((r) => r.rule as string),
    ['!(has(self.cdn) && has(self.anycast))'],
  );
  const anycast = at('containerTemplates.[].endpoints.[].anycast');
  t.deepEqual(anycast.required, ['portMappings']);
  t.like(anycast.properties.portMappings, { minItems: 1, maxItems: 20 });
  t.deepEqual(
    documentBounds('mc', 'AnycastIpProtocolVersion', ['enum']),
    { enum: ['iPv4'] },
    'the document offers one address family',
  );
  t.deepEqual(anycast.properties.ipVersion.enum, ['IPv4'], 'spelt our way');
  const protocols = at('containerTemplates.[].endpoints.[].anycast.portMappings.[].protocols.[]');
  t.deepEqual(protocols.enum, ['TCP', 'UDP', 'SCTP']);
  const status = rootSchema(crd).properties.status as Json;
  t.truthy(schemaAt(status, 'containers.[].endpoints.[].type'));
  t.truthy(schemaAt(status, 'containers.[].endpoints.[].portMappings.[].exposedPort'));
});

test('every endpoint type of the document has a status spelling (InternalIP for publicIp)', (t) => {
  const wire = documentBounds('mc', 'EndpointType', ['enum']).enum as string[];
  t.deepEqual([...wire].sort(), Object.values(ENDPOINT_TYPE_NAMES).sort());
});
