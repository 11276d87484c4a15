/**
 * Pure mapping and comparison of a ContainerRegistry: the table's body and status, the
 * fingerprint (salted, not the value, stable), which differences send the credentials, and the
 * spec path of a credentials member named in a platform error.
 */
import test from 'ava';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import {
  credentialDiffs,
  sendsCredentials,
} from '../../../../src/controllers/containerregistry/credentials.js';
import { CONTAINER_REGISTRY_FIELDS as FIELDS } from '../../../../src/controllers/containerregistry/fields.js';
import { createContainerRegistryKind } from '../../../../src/controllers/containerregistry/index.js';
import {
  passwordFingerprint,
  sentFingerprint,
} from '../../../../src/controllers/containerregistry/credentials.js';
import type {
  ContainerRegistry,
  ContainerRegistrySpec,
} from '../../../../src/controllers/containerregistry/types.js';
import { compareFields, createBody, statusOf } from '../../../../src/controllers/kit/fields.js';
import type { ControllerDeps } from '../../../../src/controllers/shared/deps.js';

function objectOf(spec: Partial<ContainerRegistrySpec> = {}): ContainerRegistry {
  return {
    apiVersion: 'containers.cdn.operator.io/v1beta1',
    kind: 'ContainerRegistry',
    metadata: { name: 'ghcr', namespace: 'team-a', uid: 'uid-1' },
    spec: {
      type: 'GitHub',
      username: 'bot',
      passwordSecretRef: { name: 'p', key: 'password' },
      ...spec,
    },
  };
}

test('the table body: display name defaults to metadata.name; no credentials (the hooks add them)', (t) => {
  t.deepEqual(createBody(FIELDS, objectOf()), { displayName: 'ghcr', type: 'gitHub' });
  t.deepEqual(createBody(FIELDS, objectOf({ name: 'Shop' })), {
    displayName: 'Shop',
    type: 'gitHub',
  });
});

test('passwordFingerprint: stable, salted by uid, never contains the value', (t) => {
  const a = passwordFingerprint('uid-1', 'hunter2-password');
  t.is(a, passwordFingerprint('uid-1', 'hunter2-password'));
  t.not(a, passwordFingerprint('uid-2', 'hunter2-password'), 'another object, another digest');
  t.not(a, passwordFingerprint('uid-1', 'hunter3-password'));
  t.regex(a, /^sha256:[0-9a-f]{64}$/);
  t.false(a.includes('hunter2'));
});

test('sentFingerprint: the fingerprint of a body with credentials, nothing without', (t) => {
  const sent = { displayName: 'x', passwordCredentials: { userName: 'bot', password: 'pw-1' } };
  t.deepEqual(sentFingerprint(objectOf(), sent), {
    passwordFingerprint: passwordFingerprint('uid-1', 'pw-1'),
  });
  t.deepEqual(sentFingerprint(objectOf(), { displayName: 'x' }), {}, 'a rename keeps the old one');
  t.deepEqual(sentFingerprint(objectOf(), undefined), {}, 'after a read');
});

test('the table status: names, never password pieces', (t) => {
  const status = statusOf(FIELDS, {
    id: 7,
    displayName: 'Shop',
    hostName: 'ghcr.io',
    userName: 'bot',
    firstPasswordSymbols: 'abc',
  });
  t.deepEqual(status, { name: 'Shop', username: 'bot' });
});

const LIVE = { id: 7, displayName: 'ghcr', hostName: 'ghcr.io', userName: 'bot' };
const CASES: {
  name: string;
  spec?: Partial<ContainerRegistrySpec>;
  live?: Partial<typeof LIVE>;
  applied?: string;
  current: string;
  fields: string[];
  credentials: boolean;
}[] = [
  { name: 'in sync', applied: 'f1', current: 'f1', fields: [], credentials: false },
  {
    name: 'adopted: no fingerprint recorded, the Secret is taken as the live password',
    current: 'f1',
    fields: [],
    credentials: false,
  },
  {
    name: 'rotated: the Secret changed since the last apply',
    applied: 'f1',
    current: 'f2',
    fields: ['password'],
    credentials: true,
  },
  {
    name: 'renamed outside: only the name is sent',
    live: { displayName: 'renamed' },
    applied: 'f1',
    current: 'f1',
    fields: ['displayName'],
    credentials: false,
  },
  {
    name: 'the platform compares names exactly',
    live: { displayName: 'GHCR' },
    applied: 'f1',
    current: 'f1',
    fields: ['displayName'],
    credentials: false,
  },
  {
    name: 'another user name needs the password too (Credentials takes both)',
    spec: { username: 'other' },
    applied: 'f1',
    current: 'f1',
    fields: ['userName'],
    credentials: true,
  },
];
for (const c of CASES) {
  test(`compare: ${c.name}`, (t) => {
    const obj = objectOf(c.spec);
    const live = { ...LIVE, ...c.live };
    const diffs = [
      ...compareFields(FIELDS, obj, live, 'container registry').diffs,
      ...credentialDiffs(obj, live, { applied: c.applied, current: c.current }),
    ];
    t.deepEqual(
      diffs.map((x) => x.field),
      c.fields,
    );
    t.is(sendsCredentials(diffs), c.credentials);
  });
}

test('credentialDiffs: a rotation plan entry shows no value or fingerprint', (t) => {
  const d = credentialDiffs(objectOf(), LIVE, { applied: 'sha256:aaa', current: 'sha256:bbb' });
  t.false(JSON.stringify(d).includes('sha256:'));
});

const PATHS = [
  { field: 'displayName', path: 'spec.name (displayName)', why: 'a table field' },
  { field: 'type', path: 'spec.type (type)', why: 'a table field the platform never returns' },
  {
    field: 'passwordCredentials.userName',
    path: 'spec.username (passwordCredentials.userName)',
    why: 'the credentials the hooks send',
  },
  {
    field: 'passwordCredentials.password',
    path: 'spec.passwordSecretRef (passwordCredentials.password)',
    why: 'the password comes from the Secret',
  },
];
for (const c of PATHS) {
  test(`a platform error naming ${c.field} names ${c.path} (${c.why})`, (t) => {
    const kind = createContainerRegistryKind({} as ControllerDeps);
    const err = new CdnApiError({
      operation: 'addRegistry',
      kind: 'invalid',
      message: 'cannot addRegistry: bad value',
      detail: 'bad value',
      status: 400,
      field: c.field,
    });
    t.regex(kind.classifyError(err).message, new RegExp(c.path.replace(/[().]/g, '\\$&')));
  });
}
