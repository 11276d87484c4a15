/**
 * The CdnAccount kind the runtime runs: its Ready condition names Secret and key (never a
 * value), it depends on its Secret (so a Secret change re-evaluates it), and with several
 * operator releases in one cluster an account served by another release (spec.secretRef.
 * namespace) is left to that release: no reference, no condition.
 */
import test from 'ava';
import { pino } from 'pino';
import {
  createAccountKinds,
  createCdnAccountKind,
} from '../../../../src/controllers/cdnaccount/index.js';
import type { ClusterObject, ConnectContext } from '../../../../src/runtime/types.js';

const SECRETS: Record<string, Record<string, string>> = {
  'ops-a/bunny': { apiKey: 'secret-key-value' },
  'ops-a/blank': { apiKey: '  ' },
};

function ctx(): ConnectContext {
  return {
    log: pino({ level: 'silent' }),
    readSecret: (ns, name) => Promise.resolve(SECRETS[`${ns}/${name}`]),
    readConfigMap: () => Promise.resolve(undefined),
    getObject: () => undefined,
  };
}

const account = (
  name: string,
  secretRef: Record<string, string>,
  generation = 3,
): ClusterObject => ({
  metadata: { name, generation },
  spec: { secretRef },
});

const cases: Array<[string, Record<string, string>, string, string, RegExp]> = [
  ['resolved', { name: 'bunny' }, 'True', 'SecretResolved', /ops-a\/bunny key "apiKey"/],
  ['no Secret', { name: 'absent' }, 'False', 'SecretNotFound', /Secret ops-a\/absent not found/],
  ['no key', { name: 'bunny', key: 'other' }, 'False', 'KeyMissing', /key "other" missing/],
  ['blank key', { name: 'blank' }, 'False', 'KeyMissing', /key "apiKey" missing/],
  ['prototype key', { name: 'bunny', key: '__proto__' }, 'False', 'KeyMissing', /__proto__/],
];

for (const [title, ref, status, reason, message] of cases) {
  test(`Ready: ${title}`, async (t) => {
    const kind = createCdnAccountKind({ operatorNamespace: 'ops-a' });
    const [c] = (await kind.conditionsOf?.(account('acct', ref), ctx())) ?? [];
    t.like(c, { type: 'Ready', status, reason, observedGeneration: 3 });
    t.regex(c?.message ?? '', message);
    t.false(c?.message.includes('secret-key-value'), 'never the value');
  });
}

test('each release keeps the status of its own accounts only', async (t) => {
  const a = createCdnAccountKind({ operatorNamespace: 'ops-a' });
  const b = createCdnAccountKind({ operatorNamespace: 'ops-b' });
  const shardA = account('shard-a', { name: 'bunny', namespace: 'ops-a' });
  t.truthy(await a.conditionsOf?.(shardA, ctx()));
  t.is(await b.conditionsOf?.(shardA, ctx()), undefined, 'left to release a');
  t.deepEqual(a.references?.(shardA), [
    { apiVersion: 'v1', kind: 'Secret', namespace: 'ops-a', name: 'bunny' },
  ]);
  t.deepEqual(b.references?.(shardA), [], 'release b never caches its Secret');
});

test('an account without secretRef.namespace is served by every release', async (t) => {
  const b = createCdnAccountKind({ operatorNamespace: 'ops-b' });
  const shared = account('default', { name: 'bunny' });
  const [c] = (await b.conditionsOf?.(shared, ctx())) ?? [];
  t.like(c, { reason: 'SecretNotFound' });
  t.regex(c?.message ?? '', /Secret ops-b\/bunny not found/);
  t.deepEqual(b.references?.(shared), [
    { apiVersion: 'v1', kind: 'Secret', namespace: 'ops-b', name: 'bunny' },
  ]);
});

test('the operator runs CdnAccounts and Namespaces as cluster kinds', (t) => {
  t.deepEqual(
    createAccountKinds({ operatorNamespace: 'ops' }).map((k) => `${k.plural}.${k.group}`),
    ['cdnaccounts.accounts.cdn.operator.io', 'namespaces.'],
  );
});
