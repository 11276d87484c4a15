import test from 'ava';
import { AccountError } from '../../../../src/controllers/shared/account-errors.js';
import { resolveApiKey } from '../../../../src/controllers/shared/credentials.js';
import { TerminalError, WaitingError } from '../../../../src/runtime/errors.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import { accountReader } from './account-fixture.js';

const SECRET_VALUE = 'sk-live-VERY-SECRET-123';
const obj = (spec: Record<string, unknown>, namespace = 'team-a'): ManagedObject => ({
  apiVersion: 'pullzones.cdn.operator.io/v1beta1',
  kind: 'PullZoneConfig',
  metadata: { name: 'z', namespace },
  spec,
});

/** Null-prototype Secret data, as the runtime's readSecret returns it. */
function data(entries: Record<string, string>): Record<string, string> {
  return Object.assign(Object.create(null) as Record<string, string>, entries);
}

const secrets: Record<string, Record<string, string>> = {
  'team-a/creds': data({ apiKey: SECRET_VALUE, other: ' padded-key \n' }),
  'ops/default': data({ apiKey: 'default-key' }),
  'ops/shared': data({ apiKey: 'shared-key' }),
};
const ctx = {
  readSecret: (ns: string, name: string): Promise<Record<string, string> | undefined> =>
    Promise.resolve(secrets[`${ns}/${name}`]),
  readClusterObject: accountReader({
    account: 'default',
    secretName: 'default',
    namespaceSelector: { matchLabels: { 'cdn.operator.io/default-account': 'true' } },
    namespaceLabels: { 'team-a': { 'cdn.operator.io/default-account': 'true' } },
  }),
};
const deps = { defaultAccount: 'default', operatorNamespace: 'ops' };

test('credentialsRef in the object namespace wins over the default account', async (t) => {
  t.is(await resolveApiKey(obj({ credentialsRef: { name: 'creds' } }), ctx, deps), SECRET_VALUE);
});

test('credentialsRef.key selects the key and surrounding whitespace is trimmed', async (t) => {
  t.is(
    await resolveApiKey(obj({ credentialsRef: { name: 'creds', key: 'other' } }), ctx, deps),
    'padded-key',
  );
});

test('the default account serves a namespace its selector matches', async (t) => {
  t.is(await resolveApiKey(obj({}), ctx, deps), 'default-key');
});

test('the default account refuses a namespace its selector does not match, naming both', async (t) => {
  const err = await t.throwsAsync(resolveApiKey(obj({}, 'team-b'), ctx, deps));
  t.true(err instanceof AccountError);
  t.is((err as AccountError).reason, 'AccountNotAllowed');
  t.regex(err.message, /CdnAccount default in namespace team-b/);
});

// What the refused tenant reads must say how the account is opened to it, for each way a
// selector can be written, and never name the other namespaces the account serves.
const openingHints: Array<[string, Record<string, unknown>, RegExp]> = [
  [
    'a label selector: the kubectl label command',
    { matchLabels: { 'cdn.operator.io/default-account': 'true', tier: 'web' } },
    /kubectl label namespace team-b cdn\.operator\.io\/default-account=true tier=web\)/,
  ],
  [
    "the chart's namespaces shorthand: the chart value",
    {
      matchExpressions: [
        { key: 'kubernetes.io/metadata.name', operator: 'In', values: ['default', 'secret-team'] },
      ],
    },
    /adding team-b to the namespace names it selects \(Helm chart: the value defaultAccount\.namespaces\)/,
  ],
  [
    'an empty selector: closed, opened with the chart values',
    {},
    /closed .*defaultAccount\.namespaces or defaultAccount\.namespaceSelector/,
  ],
  [
    'labels and expressions: the labels, and the expressions too',
    {
      matchLabels: { env: 'prod' },
      matchExpressions: [{ key: 'tier', operator: 'Exists' }],
    },
    /kubectl label namespace team-b env=prod, and matching its matchExpressions/,
  ],
  [
    'other expressions: the selector must change',
    { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold'] }] },
    /namespaceSelector\.matchExpressions select this namespace/,
  ],
];

for (const [what, namespaceSelector, hint] of openingHints) {
  test(`AccountNotAllowed says how to open the account: ${what}`, async (t) => {
    const reader = accountReader({ account: 'default', secretName: 'default', namespaceSelector });
    const err = await t.throwsAsync(
      resolveApiKey(obj({}, 'team-b'), { ...ctx, readClusterObject: reader }, deps),
    );
    t.is((err as AccountError).reason, 'AccountNotAllowed');
    t.regex(err.message, /^cannot use CdnAccount default in namespace team-b: /);
    t.regex(err.message, hint);
    t.regex(err.message, /or set spec\.credentialsRef/);
    t.false(err.message.includes('secret-team'), 'names another namespace it selects');
  });
}

test('an empty namespaceSelector opens the account to no namespace', async (t) => {
  const closed = {
    ...ctx,
    readClusterObject: accountReader({
      account: 'default',
      secretName: 'default',
      namespaceSelector: {},
    }),
  };
  const err = await t.throwsAsync(resolveApiKey(obj({}), closed, deps));
  t.is((err as AccountError).reason, 'AccountNotAllowed');
});

test('spec.accountRef names an account; an unknown one is AccountNotFound', async (t) => {
  const shared = {
    ...ctx,
    readClusterObject: accountReader({ account: 'shared', secretName: 'shared' }),
  };
  t.is(await resolveApiKey(obj({ accountRef: { name: 'shared' } }), shared, deps), 'shared-key');
  const err = await t.throwsAsync(
    resolveApiKey(obj({ accountRef: { name: 'nope' } }), shared, deps),
  );
  t.is((err as AccountError).reason, 'AccountNotFound');
});

test('credentialsRef and accountRef together are an invalid spec', async (t) => {
  const both = obj({ credentialsRef: { name: 'creds' }, accountRef: { name: 'default' } });
  const err = await t.throwsAsync(resolveApiKey(both, ctx, deps));
  t.true(err instanceof TerminalError);
});

// Issue 16 item 7: a missing Secret and a missing key are told apart.
const missing: Array<[string, Record<string, unknown>, RegExp]> = [
  ['a missing Secret', { credentialsRef: { name: 'absent' } }, /Secret team-a\/absent not found$/],
  [
    'a missing key',
    { credentialsRef: { name: 'creds', key: 'nope' } },
    /key "nope" missing in Secret team-a\/creds$/,
  ],
  // Issue 13 item 10: prototype member names are just absent keys, never `trim is not a function`.
  [
    'key __proto__',
    { credentialsRef: { name: 'creds', key: '__proto__' } },
    /key "__proto__" missing in Secret team-a\/creds$/,
  ],
  [
    'key constructor',
    { credentialsRef: { name: 'creds', key: 'constructor' } },
    /key "constructor" missing in Secret team-a\/creds$/,
  ],
  [
    'key toString',
    { credentialsRef: { name: 'creds', key: 'toString' } },
    /key "toString" missing in Secret team-a\/creds$/,
  ],
];
for (const [why, spec, message] of missing) {
  test(`${why} is a waiting condition naming the Secret and key`, async (t) => {
    const err = await t.throwsAsync(resolveApiKey(obj(spec), ctx, deps));
    t.true(err instanceof WaitingError, err.message);
    t.regex(err.message, message);
    t.false(err.message.includes(SECRET_VALUE));
  });
}

test('prototype keys on plain-object Secret data are still absent', async (t) => {
  const plain = { ...ctx, readSecret: () => Promise.resolve({ apiKey: SECRET_VALUE }) };
  for (const key of ['__proto__', 'constructor']) {
    const err = await t.throwsAsync(
      resolveApiKey(obj({ credentialsRef: { name: 'creds', key } }), plain, deps),
    );
    t.true(err instanceof WaitingError, `${key}: ${err.message}`);
  }
});

test('no credentialsRef and no default account is terminal', async (t) => {
  const err = await t.throwsAsync(resolveApiKey(obj({}), ctx, {}));
  t.true(err instanceof TerminalError);
});

test('an account served by another release (spec.secretRef.namespace) is refused, naming both namespaces', async (t) => {
  const elsewhere = {
    ...ctx,
    readClusterObject: accountReader({
      account: 'shared',
      secretName: 'shared',
      servedBy: 'ops-b',
    }),
  };
  const err = await t.throwsAsync(
    resolveApiKey(obj({ accountRef: { name: 'shared' } }), elsewhere, deps),
  );
  t.true(err instanceof AccountError);
  t.is((err as AccountError).reason, 'AccountNotAllowed');
  t.regex(err.message, /namespace ops-b .*in ops/);
  const here = {
    ...ctx,
    readClusterObject: accountReader({ account: 'shared', secretName: 'shared', servedBy: 'ops' }),
  };
  t.is(await resolveApiKey(obj({ accountRef: { name: 'shared' } }), here, deps), 'shared-key');
});
