/**
 * Which account an object uses is described once (account-schema.ts): every namespaced kind's
 * shipped CRD carries the same accountRef and credentialsRef, mutually exclusive, and
 * `credentialsRef.key` follows one rule everywhere: optional, defaulting to apiKey.
 */
import test from 'ava';
import { KINDS } from '../../../../src/controllers/kinds.js';
import {
  accountFragment,
  DEFAULT_CREDENTIALS_KEY,
} from '../../../../src/controllers/shared/account-schema.js';
import { rootSchema, shippedCrd, type Json } from '../../../support/crds.js';

const fragment = accountFragment();

for (const kind of KINDS.filter((k) => k.scope === 'Namespaced')) {
  test(`${kind.kind}: accountRef and credentialsRef are the shared fragment`, (t) => {
    const spec = rootSchema(shippedCrd(kind)).properties.spec as Json;
    t.deepEqual(spec.properties.accountRef, fragment.properties.accountRef);
    t.deepEqual(spec.properties.credentialsRef, fragment.properties.credentialsRef);
    t.deepEqual(spec.properties.credentialsRef.required, ['name'], 'key is optional');
    t.regex(
      String(spec.properties.credentialsRef.properties.key.description),
      /defaults to apiKey/,
    );
    const rules = (spec['x-kubernetes-validations'] as Json[]).map((r) => r.rule as string);
    t.true(rules.includes(fragment.rules![0]!.rule as string), 'accountRef XOR credentialsRef');
  });
}

test('the default credentials key is apiKey (what existing objects without a key read)', (t) => {
  t.is(DEFAULT_CREDENTIALS_KEY, 'apiKey');
});
