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

function cacheReturning(
  data: Record<string, string>,
  type = SECRETS,
  binaryData?: Record<string, string>,
): SecondaryCache {
  const client = {
    request: () =>
      Promise.resolve({
        metadata: { name: 's', namespace: 'ns' },
        data,
        ...(binaryData ? { binaryData } : {}),
      }),
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

/** Bytes that are no UTF-8: a text decoding on the way would change them. */
const IMAGE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0xc3]);

test('bytes: a Secret key and a ConfigMap binaryData key keep every byte (never decoded to text)', async (t) => {
  const secret = await cacheReturning({ img: IMAGE.toString('base64') }).readBytes('ns', 's', true);
  t.deepEqual(Buffer.from(secret!.img!), IMAGE);
  const map = await cacheReturning({ note: 'é' }, CONFIG_MAPS, {
    img: IMAGE.toString('base64'),
  }).readBytes('ns', 'cm', false);
  t.deepEqual(Buffer.from(map!.img!), IMAGE, 'binaryData');
  t.deepEqual(Buffer.from(map!.note!), Buffer.from('é', 'utf8'), 'data, as its UTF-8 bytes');
  t.is(map?.['constructor'], undefined, 'own keys only');
});

test("the cache keeps a referenced ConfigMap's binaryData, and drops it with the data", (t) => {
  const map = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'brand', namespace: 'ns', resourceVersion: '3', uid: 'u' },
    binaryData: { img: IMAGE.toString('base64') },
  };
  t.deepEqual(trimSecondary(map, () => true).binaryData, map.binaryData);
  t.is(trimSecondary(map, () => false).binaryData, undefined);
});
