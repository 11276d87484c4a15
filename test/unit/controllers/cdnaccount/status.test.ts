/**
 * The CdnAccount status loop with several operator releases in one cluster: an account served
 * by another release (spec.secretRef.namespace) is left to that release, so two operators never
 * write opposite verdicts into one status.
 */
import test from 'ava';
import { pino } from 'pino';
import { syncAccountStatuses } from '../../../../src/controllers/cdnaccount/status.js';
import { KubeApiError, type KubeClient } from '../../../../src/runtime/kube-client.js';

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

function fakeClient(
  accounts: unknown[],
  secrets: Record<string, Record<string, string>>,
): {
  client: KubeClient;
  calls: Call[];
} {
  const calls: Call[] = [];
  const client = {
    request: (r: Call): Promise<unknown> => {
      calls.push(r);
      if (r.method === 'GET' && r.path.endsWith('/cdnaccounts'))
        return Promise.resolve({ items: accounts });
      const m = /\/namespaces\/([^/]+)\/secrets\/([^/]+)$/.exec(r.path);
      if (m) {
        const data = secrets[`${m[1]}/${m[2]}`];
        if (data) return Promise.resolve({ data });
        return Promise.reject(new KubeApiError('not found', 404, 'NotFound'));
      }
      return Promise.resolve({});
    },
  } as unknown as KubeClient;
  return { client, calls };
}

const account = (name: string, servedBy?: string): unknown => ({
  metadata: { name, generation: 1 },
  spec: { secretRef: { name: 'bunny', ...(servedBy ? { namespace: servedBy } : {}) } },
});

const SECRETS = { 'ops-a/bunny': { apiKey: 'a2V5' } };

const patched = (calls: Call[]): string[] =>
  calls.filter((c) => c.method === 'PATCH').map((c) => c.path.split('/').at(-2) ?? '');

test('each release writes the status of its own accounts only', async (t) => {
  const accounts = [account('shard-a', 'ops-a'), account('shard-b', 'ops-b')];
  const a = fakeClient(accounts, SECRETS);
  await syncAccountStatuses({
    client: a.client,
    operatorNamespace: 'ops-a',
    log: pino({ level: 'silent' }),
  });
  t.deepEqual(patched(a.calls), ['shard-a']);
  const b = fakeClient(accounts, SECRETS);
  await syncAccountStatuses({
    client: b.client,
    operatorNamespace: 'ops-b',
    log: pino({ level: 'silent' }),
  });
  t.deepEqual(patched(b.calls), ['shard-b']);
  t.false(
    b.calls.some(
      (c) => c.path.includes('/namespaces/ops-b/secrets/') && c.path.includes('shard-a'),
    ),
    'release b never reads for shard-a',
  );
});

test('an account without secretRef.namespace is reported by every release (one release per cluster)', async (t) => {
  const x = fakeClient([account('default')], SECRETS);
  await syncAccountStatuses({
    client: x.client,
    operatorNamespace: 'ops-b',
    log: pino({ level: 'silent' }),
  });
  t.deepEqual(patched(x.calls), ['default']);
});
