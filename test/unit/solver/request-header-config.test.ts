/**
 * The front proxy's configuration as the kube-apiserver writes it into
 * kube-system/extension-apiserver-authentication: JSON arrays of strings, a PEM CA; an
 * apiserver without a front proxy (no CA, no username header) gives none, and a list that is
 * not a JSON array of strings is an error naming the key.
 */
import test from 'ava';
import {
  parseRequestHeaderConfig,
  RequestHeaderConfigError,
} from '../../../src/solver/request-header-config.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

/** What a kube-apiserver with --requestheader-* flags publishes (keys as it writes them). */
const PUBLISHED = {
  'client-ca-file': CA,
  'requestheader-client-ca-file': CA,
  'requestheader-allowed-names': '["front-proxy-client"]',
  'requestheader-username-headers': '["X-Remote-User"]',
  'requestheader-group-headers': '["X-Remote-Group"]',
  'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
};

test('the published configuration: CA, allowed names, user and group headers', (t) => {
  t.deepEqual(parseRequestHeaderConfig(PUBLISHED), {
    clientCa: CA.trim(),
    allowedNames: ['front-proxy-client'],
    usernameHeaders: ['X-Remote-User'],
    groupHeaders: ['X-Remote-Group'],
  });
});

const NONE: Array<{ why: string; data: Record<string, string> | undefined }> = [
  { why: 'the ConfigMap does not exist', data: undefined },
  { why: 'no front proxy: only the client CA of the apiserver', data: { 'client-ca-file': CA } },
  {
    why: 'no username header: nobody could be named',
    data: { ...PUBLISHED, 'requestheader-username-headers': '[]' },
  },
  {
    why: 'an empty request-header CA',
    data: { ...PUBLISHED, 'requestheader-client-ca-file': '  \n' },
  },
];

for (const c of NONE)
  test(`no request-header configuration: ${c.why}`, (t) => {
    t.is(parseRequestHeaderConfig(c.data), undefined);
  });

test('an empty allowed-names list means any certificate the CA signed (as the apiserver reads it)', (t) => {
  const auth = parseRequestHeaderConfig({ ...PUBLISHED, 'requestheader-allowed-names': '[]' });
  t.deepEqual(auth?.allowedNames, []);
  const missing = parseRequestHeaderConfig({
    ...PUBLISHED,
    'requestheader-allowed-names': undefined as unknown as string,
  });
  t.deepEqual(missing?.allowedNames, []);
});

const BAD: Array<{ why: string; key: string; value: string }> = [
  { why: 'not JSON', key: 'requestheader-allowed-names', value: 'front-proxy-client' },
  {
    why: 'a JSON string, not an array',
    key: 'requestheader-username-headers',
    value: '"X-Remote-User"',
  },
  { why: 'an array of numbers', key: 'requestheader-group-headers', value: '[1]' },
];

for (const c of BAD)
  test(`a list that is not a JSON array of strings is an error naming the key: ${c.why}`, (t) => {
    const err = t.throws(() => parseRequestHeaderConfig({ ...PUBLISHED, [c.key]: c.value }), {
      instanceOf: RequestHeaderConfigError,
    });
    t.true(err?.message.includes(c.key), err?.message);
    t.true(err?.message.includes('kube-system/extension-apiserver-authentication'), err?.message);
  });
