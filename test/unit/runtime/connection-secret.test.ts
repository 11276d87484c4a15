/**
 * Publishing connection details (connection-secret.ts): only a Secret this object controls is
 * written (created when absent, patched with a resourceVersion precondition); a foreign Secret
 * is refused without any write; every failure becomes a condition instead of an exception; a
 * Secret no longer asked for is reported once; the cache-backed access reads the cache and
 * stores its own writes. PullZoneConfig's outputs declaration is the example.
 */
import test from 'ava';
import type { KubeObject } from '../../../src/runtime/cache.js';
import {
  ConnectionSecretReason as OutputsReason,
  createSecretAccess,
  publishConnectionSecret,
  publishDetails,
  type OwnerReference,
  type SecretAccess,
  type StoredSecret,
} from '../../../src/runtime/connection-secret.js';
import {
  KubeApiError,
  type KubeClient,
  type KubeRequest,
} from '../../../src/runtime/kube-client.js';
import { NOT_CACHED } from '../../../src/runtime/secondary.js';
import {
  OUTPUTS_READY,
  OUTPUTS_SECRET,
  outputsData,
  type PullZoneOutputs,
} from '../../../src/controllers/pullzoneconfig/outputs.js';
import type { PullZoneConfig } from '../../../src/controllers/pullzoneconfig/types.js';

const UID = 'uid-shop';

const OBJ: PullZoneConfig = {
  apiVersion: 'pullzones.cdn.operator.io/v1beta1',
  kind: 'PullZoneConfig',
  metadata: { name: 'shop', namespace: 'ns', uid: UID, generation: 3 },
  spec: { outputSecretRef: { name: 'shop-out' } },
};

const OUTPUTS: PullZoneOutputs = {
  pullZoneId: '7',
  pullZoneName: 'shop',
  cdnHostname: 'shop.b-cdn.net',
  cdnUrl: 'https://shop.b-cdn.net',
  hostnames: '',
};
const DATA = { ...OUTPUTS } as Record<string, string>;

const ours = (controller = true, uid = UID): OwnerReference => ({
  apiVersion: 'pullzones.cdn.operator.io/v1beta1',
  kind: 'PullZoneConfig',
  name: 'shop',
  uid,
  controller,
});

interface Recorded {
  creates: { name: string; owner: OwnerReference; data: Record<string, string> }[];
  patches: { rv: string; data: Record<string, string | null> }[];
}

function fakeStore(
  existing: StoredSecret | undefined,
  fail?: { on: 'get' | 'create' | 'patch'; err: Error },
): SecretAccess & Recorded {
  const rec: Recorded = { creates: [], patches: [] };
  const maybeFail = (on: string): Promise<void> =>
    fail?.on === on ? Promise.reject(fail.err) : Promise.resolve();
  return {
    ...rec,
    get: () => maybeFail('get').then(() => existing),
    create: (_ns, name, owner, data) =>
      maybeFail('create').then(() => void rec.creates.push({ name, owner, data })),
    patchData: (_ns, _name, rv, data) =>
      maybeFail('patch').then(() => void rec.patches.push({ rv, data })),
  };
}

const forbidden = new KubeApiError('secrets "shop-out" is forbidden: User ...', 403, 'Forbidden');

const cases: {
  title: string;
  existing?: StoredSecret;
  fail?: { on: 'get' | 'create' | 'patch'; err: Error };
  status: 'True' | 'False';
  reason: string;
  creates: number;
  patches: Record<string, string | null>[];
}[] = [
  {
    title: 'absent: created with this object as controller',
    status: 'True',
    reason: OutputsReason.Written,
    creates: 1,
    patches: [],
  },
  {
    title: 'owned and equal: no write',
    existing: { resourceVersion: '5', ownerReferences: [ours()], data: DATA },
    status: 'True',
    reason: OutputsReason.Written,
    creates: 0,
    patches: [],
  },
  {
    title: 'owned and different: only the differing keys, stale keys removed',
    existing: {
      resourceVersion: '5',
      ownerReferences: [ours()],
      data: { ...DATA, pullZoneId: '6', zoneSecurityKey: 'old' },
    },
    status: 'True',
    reason: OutputsReason.Written,
    creates: 0,
    patches: [{ pullZoneId: '7', zoneSecurityKey: null }],
  },
  {
    title: 'foreign Secret without owners: refused, untouched',
    existing: { resourceVersion: '5', ownerReferences: [], data: { password: 'x' } },
    status: 'False',
    reason: OutputsReason.NotOwned,
    creates: 0,
    patches: [],
  },
  {
    title: 'this object as a non-controller owner: refused',
    existing: { resourceVersion: '5', ownerReferences: [ours(false)], data: {} },
    status: 'False',
    reason: OutputsReason.NotOwned,
    creates: 0,
    patches: [],
  },
  {
    title: 'controlled by another object of the same name (old uid): refused',
    existing: { resourceVersion: '5', ownerReferences: [ours(true, 'uid-old')], data: DATA },
    status: 'False',
    reason: OutputsReason.NotOwned,
    creates: 0,
    patches: [],
  },
  {
    title: 'create denied by RBAC: Forbidden condition, no throw',
    fail: { on: 'create', err: forbidden },
    status: 'False',
    reason: OutputsReason.Forbidden,
    creates: 0,
    patches: [],
  },
  {
    title: 'patch conflict (Secret changed meanwhile): WriteFailed, retried later',
    existing: { resourceVersion: '5', ownerReferences: [ours()], data: {} },
    fail: { on: 'patch', err: new KubeApiError('conflict', 409, 'Conflict') },
    status: 'False',
    reason: OutputsReason.WriteFailed,
    creates: 0,
    patches: [],
  },
  {
    title: 'network failure on read: WriteFailed',
    fail: { on: 'get', err: new KubeApiError('socket hang up') },
    status: 'False',
    reason: OutputsReason.WriteFailed,
    creates: 0,
    patches: [],
  },
];

const TARGET = {
  name: 'shop-out',
  conditionType: OUTPUTS_READY,
  what: 'outputs Secret',
  field: 'spec.outputSecretRef.name',
};

for (const c of cases) {
  test(`publish: ${c.title}`, async (t) => {
    const store = fakeStore(c.existing, c.fail);
    const { condition: cond, wrote } = await publishConnectionSecret(
      OBJ,
      TARGET,
      outputsData(OUTPUTS),
      store,
    );
    t.is(wrote, c.creates + c.patches.length > 0 || (c.fail !== undefined && c.fail.on !== 'get'));
    t.like(cond, {
      type: OUTPUTS_READY,
      status: c.status,
      reason: c.reason,
      observedGeneration: 3,
    });
    t.is(store.creates.length, c.creates);
    if (c.creates > 0) {
      t.like(store.creates[0]!.owner, { uid: UID, controller: true, kind: 'PullZoneConfig' });
      t.deepEqual(store.creates[0]!.data, DATA);
    }
    t.deepEqual(
      store.patches.map((p) => p.data),
      c.patches,
    );
    for (const p of store.patches) t.is(p.rv, '5', 'pinned to the checked resourceVersion');
    t.notRegex(cond?.message ?? '', /User|password|old/, 'no API text or Secret data');
  });
}

test('publish: nothing to report without outputSecretRef and no earlier condition', async (t) => {
  const store = fakeStore(undefined);
  const out = await publishDetails({ ...OBJ, spec: {} }, OUTPUTS_SECRET, DATA, store);
  t.deepEqual(out, { wrote: false });
  t.is(store.creates.length, 0);
});

test('publish: an earlier OutputsReady is resolved once outputSecretRef is removed', async (t) => {
  const obj: PullZoneConfig = {
    ...OBJ,
    spec: {},
    status: {
      conditions: [
        {
          type: OUTPUTS_READY,
          status: 'False',
          reason: OutputsReason.Forbidden,
          message: 'x',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
    },
  };
  const out = await publishDetails(obj, OUTPUTS_SECRET, DATA, fakeStore(undefined));
  t.like(out.condition, { status: 'True', reason: OutputsReason.NotRequested });
  t.regex(out.condition?.message ?? '', /spec\.outputSecretRef\.name is not set/);
});

test('publish: without details (nothing observed) nothing is read or written', async (t) => {
  const store = fakeStore(undefined, { on: 'get', err: new Error('not expected') });
  t.deepEqual(await publishDetails(OBJ, OUTPUTS_SECRET, undefined, store), { wrote: false });
});

test('publish: a Secret required for Ready that is not written makes the object not ready', async (t) => {
  const required = { ...OUTPUTS_SECRET, requiredForReady: 'PasswordSecretNotReady' };
  const foreign = { resourceVersion: '5', ownerReferences: [], data: {} };
  const refused = await publishDetails(OBJ, required, DATA, fakeStore(foreign));
  t.like(refused.notReady, { reason: 'PasswordSecretNotReady' });
  t.regex(refused.notReady?.message ?? '', /not controlled by this PullZoneConfig/);
  const written = await publishDetails(OBJ, required, DATA, fakeStore(undefined));
  t.is(written.notReady, undefined);
});

test('publish: an aborted pass (shutdown) still throws', async (t) => {
  const ac = new AbortController();
  ac.abort();
  await t.throwsAsync(
    publishConnectionSecret(
      OBJ,
      TARGET,
      DATA,
      fakeStore(undefined, { on: 'get', err: forbidden }),
      ac.signal,
    ),
  );
});

/** A Secret as the apiserver returns it (base64 data). */
function wire(rv: string, data: Record<string, string>, owner?: OwnerReference): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'shop-out',
      namespace: 'ns',
      resourceVersion: rv,
      ...(owner ? { ownerReferences: [owner] } : {}),
    },
    data: Object.fromEntries(
      Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
    ),
  };
}

test('access: served from the cache (no GET); a write is preconditioned and stored back', async (t) => {
  const requests: KubeRequest[] = [];
  const stored: KubeObject[] = [];
  let cached: KubeObject | undefined | typeof NOT_CACHED = wire('5', { pullZoneId: '6' }, ours());
  const client = {
    request: (r: KubeRequest) => {
      requests.push(r);
      return Promise.resolve(wire('6', DATA, ours()));
    },
  } as unknown as KubeClient;
  const access = createSecretAccess(client, {
    cached: () => cached,
    get: () => Promise.reject(new Error('no GET expected')),
    storeWritten: (o) => {
      stored.push(o);
      cached = o;
    },
  });
  const first = await publishConnectionSecret(OBJ, TARGET, DATA, access);
  t.true(first.wrote);
  t.is(requests.length, 1, 'one PATCH, no GET');
  t.like(requests[0], { method: 'PATCH', path: '/api/v1/namespaces/ns/secrets/shop-out' });
  t.like(requests[0]!.body, { metadata: { resourceVersion: '5' } });
  t.is(stored.length, 1, 'the answer is stored in the cache');
  const again = await publishConnectionSecret(OBJ, TARGET, DATA, access);
  t.false(again.wrote, 'equal now: no write, no read');
  t.is(requests.length, 1);
});

test('access: a Secret the cache cannot answer for is read with one GET', async (t) => {
  let gets = 0;
  const client = {
    request: () => Promise.resolve(wire('2', DATA, ours())),
  } as unknown as KubeClient;
  const access = createSecretAccess(client, {
    cached: () => NOT_CACHED,
    get: () => {
      gets++;
      return Promise.resolve(wire('1', {}, ours(true, 'uid-other')));
    },
    storeWritten: () => undefined,
  });
  const out = await publishConnectionSecret(OBJ, TARGET, DATA, access);
  t.is(gets, 1);
  t.like(out.condition, { reason: OutputsReason.NotOwned });
  t.false(out.wrote);
});
