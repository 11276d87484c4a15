import test from 'ava';
import { resolveApiKey } from '../../../../src/controllers/shared/credentials.js';
import { TerminalError, WaitingError } from '../../../../src/runtime/errors.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';

const SECRET_VALUE = 'sk-live-VERY-SECRET-123';
const obj = (spec: Record<string, unknown>): ManagedObject => ({
  apiVersion: 'cdn.operator.io/v1alpha1',
  kind: 'PullZoneConfig',
  metadata: { name: 'z', namespace: 'team-a' },
  spec,
});
const secrets: Record<string, Record<string, string>> = {
  'team-a/creds': { apiKey: SECRET_VALUE, other: ' padded-key \n' },
  'ops/default': { apiKey: 'default-key' },
};
const ctx = {
  readSecret: (ns: string, name: string): Promise<Record<string, string> | undefined> =>
    Promise.resolve(secrets[`${ns}/${name}`]),
};
const deps = { defaultCredentials: { namespace: 'ops', name: 'default', key: 'apiKey' } };

test('credentialsRef in the object namespace wins over the default', async (t) => {
  t.is(await resolveApiKey(obj({ credentialsRef: { name: 'creds' } }), ctx, deps), SECRET_VALUE);
});

test('credentialsRef.key selects the key and surrounding whitespace is trimmed', async (t) => {
  t.is(
    await resolveApiKey(obj({ credentialsRef: { name: 'creds', key: 'other' } }), ctx, deps),
    'padded-key',
  );
});

test('falls back to the operator default Secret', async (t) => {
  t.is(await resolveApiKey(obj({}), ctx, deps), 'default-key');
});

test('a missing Secret is a waiting condition naming the Secret', async (t) => {
  const err = await t.throwsAsync(
    resolveApiKey(obj({ credentialsRef: { name: 'absent' } }), ctx, deps),
  );
  t.true(err instanceof WaitingError);
  t.regex(err.message, /team-a\/absent/);
});

test('a missing key names the key but never echoes other values', async (t) => {
  const err = await t.throwsAsync(
    resolveApiKey(obj({ credentialsRef: { name: 'creds', key: 'nope' } }), ctx, deps),
  );
  t.regex(err.message, /"nope"/);
  t.false(err.message.includes(SECRET_VALUE));
});

test('no credentialsRef and no default is terminal', async (t) => {
  const err = await t.throwsAsync(resolveApiKey(obj({}), ctx, {}));
  t.true(err instanceof TerminalError);
});
