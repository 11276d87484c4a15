import test from 'ava';
import { pino } from 'pino';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import { WaitingError } from '../../../../src/runtime/errors.js';
import type { ConnectContext, ObjectReference } from '../../../../src/runtime/types.js';
import {
  AppWriteError,
  classifyContainerAppError,
  scrubCdnError,
} from '../../../../src/controllers/containerapp/errors.js';
import { envKey } from '../../../../src/controllers/containerapp/mapping.js';
import {
  environmentHash,
  referencesOf,
  resolveRefs,
} from '../../../../src/controllers/containerapp/references.js';
import type { ContainerApp } from '../../../../src/controllers/containerapp/types.js';
import { baseSpec } from './fixtures.js';

function app(): ContainerApp {
  const spec = baseSpec();
  spec.credentialsRef = { name: 'creds' };
  const web = spec.containerTemplates[0]!;
  web.environmentVariables = [
    { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'app-secret', key: 'token' } } },
    { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'level' } } },
  ];
  web.endpoints![0]!.cdn!.pullZoneRef = { name: 'demo-zone' };
  return {
    apiVersion: 'containers.cdn.operator.io/v1beta1',
    kind: 'ContainerApp',
    metadata: { name: 'demo', namespace: 'ns1', uid: 'u1' },
    spec: spec as ContainerApp['spec'],
  };
}

interface World {
  secrets?: Record<string, Record<string, string>>;
  configMaps?: Record<string, Record<string, string>>;
  zones?: Record<string, Record<string, unknown> | undefined>;
}

function ctxOf(w: World): ConnectContext {
  return {
    readSecret: (_ns, name) => Promise.resolve(w.secrets?.[name]),
    readConfigMap: (_ns, name) => Promise.resolve(w.configMaps?.[name]),
    getObject: (ref: ObjectReference) =>
      ref.name in (w.zones ?? {})
        ? {
            ...ref,
            metadata: { name: ref.name, namespace: ref.namespace },
            status: w.zones![ref.name],
          }
        : undefined,
    log: pino({ level: 'silent' }),
  };
}

const ready: World = {
  secrets: { 'app-secret': { token: 's3cret-token' } },
  configMaps: { 'app-config': { level: 'info' } },
  zones: { 'demo-zone': { pullZoneId: 1234 } },
};

test('referencesOf lists credentials, env sources and pull zone configs once each', (t) => {
  t.deepEqual(referencesOf(app(), {}), [
    { apiVersion: 'v1', kind: 'Secret', namespace: 'ns1', name: 'creds' },
    { apiVersion: 'v1', kind: 'Secret', namespace: 'ns1', name: 'app-secret' },
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns1', name: 'app-config' },
    {
      apiVersion: 'pullzones.cdn.operator.io/v1beta1',
      kind: 'PullZoneConfig',
      namespace: 'ns1',
      name: 'demo-zone',
    },
  ]);
});

test('resolveRefs reads values and pull zone ids; secret variables are marked', async (t) => {
  const refs = await resolveRefs(app(), ctxOf(ready));
  t.is(refs.env.get(envKey('web', 'TOKEN')), 's3cret-token');
  t.is(refs.env.get(envKey('web', 'LEVEL')), 'info');
  t.true(refs.secretEnv.has(envKey('web', 'TOKEN')));
  t.false(refs.secretEnv.has(envKey('web', 'LEVEL')));
  t.is(refs.pullZones.get('demo-zone'), 1234);
});

const waiting: { name: string; world: World; message: RegExp; reason: string }[] = [
  {
    name: 'zone without id',
    world: { ...ready, zones: { 'demo-zone': {} } },
    message: /waiting for PullZoneConfig ns1\/demo-zone to get a pull zone id/,
    reason: 'the referenced PullZoneConfig has not created its zone yet',
  },
  {
    name: 'zone missing',
    world: { ...ready, zones: {} },
    message: /PullZoneConfig ns1\/demo-zone: not found/,
    reason: 'the referenced PullZoneConfig does not exist (yet)',
  },
  {
    name: 'secret missing',
    world: { ...ready, secrets: {} },
    message: /Secret ns1\/app-secret .*not found/,
    reason: 'a pod would wait for the Secret too',
  },
  {
    name: 'key missing',
    world: { ...ready, secrets: { 'app-secret': { other: 'x' } } },
    message: /to have key "token"/,
    reason: 'the Secret exists but lacks the key',
  },
];

for (const w of waiting) {
  test(`resolveRefs waits with ReferenceNotReady: ${w.name} (${w.reason})`, async (t) => {
    const err = await t.throwsAsync(resolveRefs(app(), ctxOf(w.world)), {
      instanceOf: WaitingError,
    });
    t.is(err.reason, 'ReferenceNotReady');
    t.regex(err.message, w.message);
    t.false(err.message.includes('s3cret-token'));
    t.is(classifyContainerAppError(err).class, 'waiting');
  });
}

test('environmentHash changes with a value, is salted by uid, never contains the value', async (t) => {
  const refs = await resolveRefs(app(), ctxOf(ready));
  const other = await resolveRefs(
    app(),
    ctxOf({ ...ready, secrets: { 'app-secret': { token: 'new' } } }),
  );
  const h1 = environmentHash('u1', refs)!;
  t.not(h1, environmentHash('u1', other));
  t.not(h1, environmentHash('u2', refs));
  t.false(h1.includes('s3cret'));
  t.is(
    environmentHash('u1', { env: new Map(), secretEnv: new Set(), pullZones: new Map() }),
    undefined,
  );
});

test('scrubCdnError removes secret values the platform echoes back', (t) => {
  const err = new CdnApiError({
    operation: 'patchApp',
    kind: 'invalid',
    status: 400,
    message: 'cannot patchApp: value s3cret-token is too long',
    detail: 'value s3cret-token is too long',
    fields: [
      {
        field: 'containerTemplates[0].environmentVariables[0].value',
        message: 's3cret-token is too long',
      },
    ],
  });
  const clean = scrubCdnError(err, ['s3cret-token']);
  t.false(JSON.stringify(clean.toJSON()).includes('s3cret-token'));
  t.false((clean.stack ?? '').includes('s3cret-token'));
  const c = classifyContainerAppError(new AppWriteError(clean, (f) => `spec.${f}`));
  t.is(c.class, 'terminal');
  t.regex(
    c.message,
    /spec\.containerTemplates\[0\]\.environmentVariables\[0\]\.value: <redacted> is too long/,
  );
});

function withLogToken(): ContainerApp {
  const obj = app();
  obj.spec.logForwarding = {
    type: 'SyslogUDP',
    endpoint: 'logs.example.com',
    port: 514,
    format: 'SyslogRFC3164',
    tokenSecretRef: { name: 'log-token', key: 'token' },
  };
  return obj;
}

test('the log forwarding token Secret is a watched reference and is read exactly', async (t) => {
  t.deepEqual(
    referencesOf(withLogToken(), {}).filter((r) => r.name === 'log-token'),
    [{ apiVersion: 'v1', kind: 'Secret', namespace: 'ns1', name: 'log-token' }],
  );
  const world = { ...ready, secrets: { ...ready.secrets, 'log-token': { token: ' tok en ' } } };
  const refs = await resolveRefs(withLogToken(), ctxOf(world));
  t.is(refs.logForwardingToken, ' tok en ', 'used as stored, whitespace included');
  t.is(refs.env.size, 2, 'not an environment value (environmentHash is unchanged by it)');
  t.false('logForwardingToken' in (await resolveRefs(app(), ctxOf(ready))));
});

const TOKEN_WAITS: Array<[string, Record<string, Record<string, string>>, RegExp]> = [
  [
    'Secret missing',
    {},
    /Secret ns1\/log-token \(spec\.logForwarding\.tokenSecretRef\): not found/,
  ],
  [
    'key missing',
    { 'log-token': { other: 'x' } },
    /to have key "token" \(spec\.logForwarding\.tokenSecretRef\)$/,
  ],
  ['value empty (an exported placeholder)', { 'log-token': { token: '' } }, /: it is empty$/],
];

for (const [name, secrets, message] of TOKEN_WAITS) {
  test(`log forwarding token: ${name} -> ReferenceNotReady naming Secret and key`, async (t) => {
    const world = { ...ready, secrets: { ...ready.secrets, ...secrets } };
    const err = await t.throwsAsync(resolveRefs(withLogToken(), ctxOf(world)), {
      instanceOf: WaitingError,
    });
    t.is(err.reason, 'ReferenceNotReady');
    t.regex(err.message, message);
    t.false(err.message.includes('s3cret-token'));
  });
}
