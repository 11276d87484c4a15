import test from 'ava';
import {
  envKey,
  liveEndpointToRequest,
  toContainerStatus,
  toCreateBody,
  toDesiredApp,
  writeOnlyOf,
} from '../../../../src/controllers/containerapp/mapping.js';
import type { ContainerAppSpec } from '../../../../src/controllers/containerapp/types.js';
import { baseSpec, desiredOf, liveOf } from './fixtures.js';

function specWithRefs(): ContainerAppSpec {
  const spec = baseSpec();
  const web = spec.containerTemplates[0]!;
  web.imagePullPolicy = 'Always';
  web.environmentVariables = [
    { name: 'PLAIN', value: 'x' },
    { name: 'EMPTY' },
    { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'app-secret', key: 'token' } } },
    { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'level' } } },
    { name: 'MAYBE', valueFrom: { secretKeyRef: { name: 'gone', key: 'k', optional: true } } },
  ];
  web.endpoints = [
    { displayName: 'http', cdn: { pullZoneRef: { name: 'demo-zone' }, sslEnabled: true } },
    { displayName: 'direct', cdn: { pullZoneId: 12 } },
    { displayName: 'bare' },
  ];
  spec.regionSettings = { nodeSelectors: { tier: 'edge' } };
  spec.terminationGracePeriodSeconds = 20;
  return spec;
}

const refs = {
  env: new Map([
    [envKey('web', 'TOKEN'), 't0k3n'],
    [envKey('web', 'LEVEL'), 'debug'],
  ]),
  secretEnv: new Set([envKey('web', 'TOKEN')]),
  pullZones: new Map([['demo-zone', 77]]),
};

test('toDesiredApp resolves references and maps enums', (t) => {
  const d = toDesiredApp(specWithRefs(), refs);
  const web = d.containerTemplates[0]!;
  t.is(web.imagePullPolicy, 'always', 'Always -> always');
  t.deepEqual(
    web.environmentVariables,
    [
      { name: 'PLAIN', value: 'x' },
      { name: 'EMPTY', value: '' },
      { name: 'TOKEN', value: 't0k3n' },
      { name: 'LEVEL', value: 'debug' },
    ],
    'optional missing reference left out; literal without value is empty',
  );
  t.deepEqual(web.endpoints, [
    { displayName: 'http', cdn: { isSslEnabled: true, pullZoneId: 77 } },
    { displayName: 'direct', cdn: { pullZoneId: 12 } },
    { displayName: 'bare' },
  ]);
  t.false('pullZoneRef' in (web.endpoints![0]!.cdn as object), 'reference never sent');
  t.deepEqual(d.containerTemplates[1]!.endpoints, [], 'absent list means none');
  t.true(d.secretEnv.has(envKey('web', 'TOKEN')));
});

test('toCreateBody: runtimeType shared, regionSettings defaulted, no operator-only fields', (t) => {
  const spec = baseSpec();
  delete spec.regionSettings;
  spec.credentialsRef = { name: 'creds' };
  spec.deletionPolicy = 'Orphan';
  const body = toCreateBody(desiredOf(spec)) as Record<string, unknown>;
  t.is(body.runtimeType, 'shared');
  t.deepEqual(body.regionSettings, {});
  for (const k of ['credentialsRef', 'deletionPolicy', 'appId', 'secretEnv']) t.false(k in body, k);
});

test('writeOnlyOf records terminationGracePeriodSeconds and nodeSelectors', (t) => {
  t.deepEqual(writeOnlyOf(toDesiredApp(specWithRefs(), refs)), {
    terminationGracePeriodSeconds: 20,
    nodeSelectors: { tier: 'edge' },
  });
  t.deepEqual(writeOnlyOf(desiredOf(baseSpec())), {});
});

test('liveEndpointToRequest: numeric pull zone id, none when empty', (t) => {
  const live = liveOf(desiredOf(baseSpec()));
  const e = live.containerTemplates[0]!.endpoints[0]!;
  t.is(liveEndpointToRequest(e).cdn!.pullZoneId, 1000);
  t.is(liveEndpointToRequest({ ...e, pullZoneId: '' }).cdn!.pullZoneId, undefined);
});

test('toContainerStatus: ids, image, endpoint type, hosts, ports and addresses', (t) => {
  const live = liveOf(desiredOf(baseSpec()));
  const c = live.containerTemplates[0]!;
  c.endpoints[0]!.publicIpAddresses = [{ address: '192.0.2.1', region: 'DE' }];
  t.deepEqual(toContainerStatus(c), {
    name: 'web',
    id: 'c-web',
    image: 'library/nginx:1.25',
    endpoints: [
      {
        displayName: 'http',
        id: 'e-web-http',
        type: 'CDN',
        publicHost: 'http.web.example.net',
        pullZoneId: 1000,
        portMappings: [{ containerPort: 80, exposedPort: 80, protocols: ['TCP'] }],
        publicIpAddresses: [{ address: '192.0.2.1', region: 'DE' }],
      },
    ],
  });
});
