import test from 'ava';
import { classifyError, classifyKubeError } from '../../../src/runtime/classify.js';
import { TerminalError, WaitingError, type ClassifiedError } from '../../../src/runtime/errors.js';
import { KubeApiError } from '../../../src/runtime/kube-client.js';

const kindSays = (c: ClassifiedError) => () => c;
const never = (): ClassifiedError => {
  throw new Error('kind classifier must not be asked');
};

const kubeCases: Array<[string, KubeApiError, ClassifiedError['class']]> = [
  ['409 stale resourceVersion → silent requeue', new KubeApiError('conflict', 409), 'conflict'],
  ['404 on our own write → requeue without error', new KubeApiError('gone', 404), 'conflict'],
  ['500 → retry', new KubeApiError('boom', 500), 'retryable'],
  ['429 → retry', new KubeApiError('slow down', 429, 'TooManyRequests', 3000), 'retryable'],
  [
    'network error without status → retry',
    new KubeApiError('ECONNREFUSED', undefined, 'NetworkError', undefined, 'ECONNREFUSED'),
    'retryable',
  ],
  ['403 → RBAC problem, periodic recheck', new KubeApiError('forbidden', 403), 'unauthorized'],
  ['422 → terminal', new KubeApiError('invalid', 422), 'terminal'],
];
for (const [why, err, cls] of kubeCases) {
  test(`Kubernetes error: ${why}`, (t) => t.is(classifyError(err, never).class, cls));
}

test('Retry-After from Kubernetes is kept', (t) => {
  const c = classifyKubeError(new KubeApiError('slow', 429, undefined, 3000));
  t.like(c, { class: 'retryable', retryAfterMs: 3000 });
});

test('TerminalError and WaitingError are classified by the runtime', (t) => {
  t.deepEqual(classifyError(new TerminalError('InvalidSpec', 'bad origin'), never), {
    class: 'terminal',
    reason: 'InvalidSpec',
    message: 'bad origin',
  });
  t.deepEqual(classifyError(new WaitingError('ReferenceNotReady', 'zone not ready', 2000), never), {
    class: 'waiting',
    reason: 'ReferenceNotReady',
    message: 'zone not ready',
    requeueAfterMs: 2000,
  });
});

test('other errors go to the kind classifier', (t) => {
  const c: ClassifiedError = { class: 'unauthorized', reason: 'Unauthorized', message: 'bad key' };
  t.deepEqual(classifyError(new Error('401'), kindSays(c)), c);
});

test('a throwing kind classifier yields a retryable error, not a crash', (t) => {
  t.like(classifyError(new Error('weird'), never), { class: 'retryable', message: 'weird' });
});
