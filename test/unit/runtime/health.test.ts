/** Bind address parsing and the readiness check rendering of health.ts. */
import test from 'ava';
import { evaluateChecks, parseBindAddress } from '../../../src/runtime/health.js';

test('bind addresses', (t) => {
  t.deepEqual(parseBindAddress(':8080'), { host: '0.0.0.0', port: 8080 });
  t.deepEqual(parseBindAddress('127.0.0.1:0'), { host: '127.0.0.1', port: 0 });
  t.deepEqual(parseBindAddress('[::1]:9'), { host: '::1', port: 9 });
  t.is(parseBindAddress('0'), undefined);
  t.throws(() => parseBindAddress('8080'), { message: /expected \[host\]:port/ });
});

test('readiness checks', (t) => {
  t.deepEqual(evaluateChecks([{ name: 'a', check: () => undefined }]), {
    status: 200,
    body: 'ok\n',
  });
  t.is(
    evaluateChecks([{ name: 'informers', check: () => 'not synced' }]).body,
    '[-]informers failed: not synced\n',
  );
});
