/**
 * Pure mapping and comparison of a ContainerRegistry: the add/replace body, the fingerprint
 * (salted, not the value, stable), and which differences send the credentials.
 */
import test from 'ava';
import { diffRegistry } from '../../../../src/controllers/containerregistry/diff.js';
import {
  passwordFingerprint,
  statusOf,
  toRequest,
} from '../../../../src/controllers/containerregistry/mapping.js';
import type {
  ContainerRegistry,
  ContainerRegistrySpec,
} from '../../../../src/controllers/containerregistry/types.js';

function objectOf(spec: Partial<ContainerRegistrySpec> = {}): ContainerRegistry {
  return {
    apiVersion: 'cdn.operator.io/v1alpha1',
    kind: 'ContainerRegistry',
    metadata: { name: 'ghcr', namespace: 'team-a', uid: 'uid-1' },
    spec: {
      type: 'gitHub',
      username: 'bot',
      passwordSecretRef: { name: 'p', key: 'password' },
      ...spec,
    },
  };
}

test('toRequest: display name defaults to metadata.name; credentials only with a password', (t) => {
  t.deepEqual(toRequest(objectOf()), { displayName: 'ghcr', type: 'gitHub' });
  t.deepEqual(toRequest(objectOf({ displayName: 'Shop' }), 'pw'), {
    displayName: 'Shop',
    type: 'gitHub',
    passwordCredentials: { userName: 'bot', password: 'pw' },
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

test('statusOf: ids and names, never password pieces', (t) => {
  const status = statusOf({
    id: 7,
    displayName: 'Shop',
    hostName: 'ghcr.io',
    userName: 'bot',
    firstPasswordSymbols: 'abc',
  } as never);
  t.deepEqual(status, { registryId: 7, displayName: 'Shop', hostName: 'ghcr.io', username: 'bot' });
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
  test(`diffRegistry: ${c.name}`, (t) => {
    const d = diffRegistry(
      objectOf(c.spec),
      { ...LIVE, ...c.live },
      {
        applied: c.applied,
        current: c.current,
      },
    );
    t.deepEqual(
      d.diffs.map((x) => x.field),
      c.fields,
    );
    t.is(d.sendCredentials, c.credentials);
  });
}

test('diffRegistry: a rotation plan entry shows no value or fingerprint', (t) => {
  const d = diffRegistry(objectOf(), LIVE, { applied: 'sha256:aaa', current: 'sha256:bbb' });
  t.false(JSON.stringify(d).includes('sha256:'));
});
