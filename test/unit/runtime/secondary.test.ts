/**
 * Secret/ConfigMap data handed to kinds is a null-prototype object: a user-given key such as
 * `constructor` or `__proto__` (issue 13 item 10) finds only the object's own data.
 */
import test from 'ava';
import { pino } from 'pino';
import type { KubeClient } from '../../../src/runtime/kube-client.js';
import { OperatorMetrics } from '../../../src/runtime/metrics.js';
import { CONFIG_MAPS, SECRETS } from '../../../src/runtime/resource.js';
import { SecondaryCache, trimSecondary } from '../../../src/runtime/secondary.js';

function cacheReturning(data: Record<string, string>, type = SECRETS): SecondaryCache {
  const client = {
    request: () => Promise.resolve({ metadata: { name: 's', namespace: 'ns' }, data }),
  } as unknown as KubeClient;
  // Never started: every read is a GET through the fake client.
  return new SecondaryCache(
    client,
    type,
    ['watched'],
    pino({ level: 'silent' }),
    new OperatorMetrics(),
    () => undefined,
  );
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

test('Secret data: decoded own keys only', async (t) => {
  const data = await cacheReturning({ apiKey: b64('k-123'), constructor: b64('c-value') }).readData(
    'ns',
    's',
    true,
  );
  t.is(data?.apiKey, 'k-123');
  t.is(data?.['constructor'], 'c-value', 'an own key named constructor is data');
  const plain = await cacheReturning({ apiKey: b64('k-123') }).readData('ns', 's', true);
  for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    t.is(plain?.[key], undefined, key);
  }
});

test('ConfigMap data: same rule', async (t) => {
  const data = await cacheReturning({ mode: 'prod' }, CONFIG_MAPS).readData('ns', 'cm', false);
  t.is(data?.mode, 'prod');
  t.is(data?.['constructor'], undefined);
  t.is(data?.['__proto__'], undefined);
});

test('the cache keeps data only of referenced objects (issue 14 item 9)', (t) => {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'sh.helm.release.v1.x', namespace: 'ns', resourceVersion: '7', uid: 'u' },
    data: { release: b64('x'.repeat(1000)) },
  };
  const referenced = new Set(['ns/used']);
  const isReferenced = (ns: string, name: string): boolean => referenced.has(`${ns}/${name}`);
  const unused = trimSecondary(secret, isReferenced);
  t.is(unused.data, undefined, 'an unreferenced Secret is held without its data');
  t.is(unused.metadata.resourceVersion, '7');
  const used = trimSecondary(
    { ...secret, metadata: { ...secret.metadata, name: 'used' } },
    isReferenced,
  );
  t.deepEqual(used.data, secret.data, 'a referenced Secret keeps its data');
});
