/**
 * The outputs Secret writer: only a Secret this object controls is written (created when
 * absent, patched with a resourceVersion precondition); a foreign Secret is refused without
 * any write; every failure becomes an OutputsReady condition instead of an exception.
 */
import test from 'ava';
import { KubeApiError } from '../../../../src/runtime/kube-client.js';
import {
  ensureOutputs,
  OUTPUTS_READY,
  OutputsReason,
  type OwnerReference,
  type PullZoneOutputs,
  type SecretStore,
  type StoredSecret,
} from '../../../../src/controllers/pullzoneconfig/outputs.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';

const UID = 'uid-shop';

const OBJ: PullZoneConfig = {
  apiVersion: 'cdn.operator.io/v1alpha1',
  kind: 'PullZoneConfig',
  metadata: { name: 'shop', namespace: 'ns', uid: UID, generation: 3 },
  spec: { writeOutputsTo: 'shop-out' },
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
  apiVersion: 'cdn.operator.io/v1alpha1',
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
): SecretStore & Recorded {
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

for (const c of cases) {
  test(`outputs: ${c.title}`, async (t) => {
    const store = fakeStore(c.existing, c.fail);
    const cond = await ensureOutputs(OBJ, OUTPUTS, store);
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

test('outputs: nothing to report without writeOutputsTo and no earlier condition', async (t) => {
  const store = fakeStore(undefined);
  t.is(await ensureOutputs({ ...OBJ, spec: {} }, OUTPUTS, store), undefined);
  t.is(store.creates.length, 0);
});

test('outputs: an earlier OutputsReady is resolved once writeOutputsTo is removed', async (t) => {
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
  t.like(await ensureOutputs(obj, OUTPUTS, fakeStore(undefined)), {
    status: 'True',
    reason: OutputsReason.NotRequested,
  });
});

test('outputs: an aborted pass (shutdown) still throws', async (t) => {
  const ac = new AbortController();
  ac.abort();
  await t.throwsAsync(
    ensureOutputs(OBJ, OUTPUTS, fakeStore(undefined, { on: 'get', err: forbidden }), ac.signal),
  );
});
