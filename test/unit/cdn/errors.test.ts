import test from 'ava';
import {
  CdnApiError,
  isCdnApiError,
  isRetryableKind,
  kindForStatus,
  type CdnErrorKind,
} from '../../../src/cdn/errors.js';

const statusKinds: Array<[number, CdnErrorKind, string]> = [
  [400, 'invalid', 'model validation failure'],
  [422, 'invalid', 'unprocessable entity (Magic Containers validation)'],
  [401, 'unauthorized', 'bad or missing key'],
  [403, 'unauthorized', 'key lacks the role'],
  [404, 'notFound', 'missing object'],
  [409, 'conflict', 'duplicate name'],
  [429, 'rateLimited', 'too many requests'],
  [500, 'server', 'internal error'],
  [503, 'server', 'unavailable'],
  [405, 'server', 'other 4xx are not a verdict on the spec: retried with backoff'],
  [408, 'timeout', 'request timeout: retried'],
  [425, 'server', 'too early: retried'],
];

for (const [status, kind, why] of statusKinds) {
  test(`kindForStatus(${status}) is ${kind}: ${why}`, (t) => {
    t.is(kindForStatus(status), kind);
  });
}

test('retryable kinds are exactly server, network, timeout and rateLimited', (t) => {
  const all: CdnErrorKind[] = [
    'invalid',
    'unauthorized',
    'notFound',
    'conflict',
    'rateLimited',
    'server',
    'network',
    'timeout',
  ];
  t.deepEqual(
    all.filter((k) => isRetryableKind(k)),
    ['rateLimited', 'server', 'network', 'timeout'],
  );
});

test('CdnApiError keeps its fields, serialises them and is recognised', (t) => {
  const e = new CdnApiError({
    operation: 'updatePullZone',
    kind: 'invalid',
    status: 400,
    message: 'cannot updatePullZone: bad origin',
    detail: 'bad origin',
    field: 'OriginUrl',
    errorKey: 'pullzone.validation',
  });
  t.true(isCdnApiError(e));
  t.false(isCdnApiError(new Error('x')));
  t.is(e.detail, 'bad origin');
  t.false(e.retryable);
  const json = JSON.parse(JSON.stringify(e)) as Record<string, unknown>;
  t.like(json, { operation: 'updatePullZone', kind: 'invalid', status: 400, field: 'OriginUrl' });
});
