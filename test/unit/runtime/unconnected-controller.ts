/**
 * A Controller of a FakeEnv kind over a fake apiserver, one worker, whose passes never connect
 * to a platform: for tests of its queueing and its cache, not of its passes.
 */
import { pino } from 'pino';
import { Controller } from '../../../src/runtime/controller.js';
import { EventRecorder } from '../../../src/runtime/events.js';
import type { KubeClient } from '../../../src/runtime/kube-client.js';
import { OperatorMetrics } from '../../../src/runtime/metrics.js';
import type { FakeEnv } from './fake-env.js';

const log = pino({ level: 'silent' });

/** See the module comment; the controller watches namespace `ns`. */
export function unconnectedController(env: FakeEnv, client: KubeClient): Controller {
  return new Controller({
    kind: env.kind(),
    client,
    namespaces: ['ns'],
    workers: 1,
    metrics: new OperatorMetrics(),
    events: new EventRecorder({ client, log, controller: 'c', instance: 'i' }),
    log,
    signal: new AbortController().signal,
    connectContext: () => {
      throw new Error('not used');
    },
  });
}
