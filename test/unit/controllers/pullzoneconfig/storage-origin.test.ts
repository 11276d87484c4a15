/**
 * PullZoneConfig spec.storageZoneRef: the origin settings it stands for, waiting while the
 * StorageZone has no id, conflicts with settings, another account, deletion never blocked,
 * and the wrapped external client seeing the origin settings.
 */
import test from 'ava';
import { TerminalError, WaitingError } from '../../../../src/runtime/errors.js';
import type {
  ExternalClient,
  ManagedObject,
  ObjectReference,
} from '../../../../src/runtime/types.js';
import {
  resolveStorageOrigin,
  storageZoneReference,
  withStorageOrigin,
} from '../../../../src/controllers/pullzoneconfig/storage-origin.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';
import { pzc } from './ref-fixtures.js';
import { toApiSettings } from '../../../../src/controllers/pullzoneconfig/mapping.js';

function zone(status?: Record<string, unknown>): ManagedObject {
  return {
    apiVersion: 'storage.cdn.operator.io/v1beta1',
    kind: 'StorageZone',
    metadata: { name: 'files', namespace: 'team-a' },
    ...(status ? { status } : {}),
  };
}

const lookup =
  (obj: ManagedObject | undefined) =>
  (ref: ObjectReference): ManagedObject | undefined =>
    ref.kind === 'StorageZone' && ref.name === 'files' ? obj : undefined;

const REF = { storageZoneRef: { name: 'files' } };

test('the reference names a StorageZone in the same namespace', (t) => {
  t.deepEqual(storageZoneReference(pzc(REF)), {
    apiVersion: 'storage.cdn.operator.io/v1beta1',
    kind: 'StorageZone',
    namespace: 'team-a',
    name: 'files',
  });
  t.is(storageZoneReference(pzc({})), undefined);
});

const cases: {
  name: string;
  spec: Record<string, unknown>;
  zone?: ManagedObject;
  deleting?: boolean;
  want?: number;
  error?: { type: typeof TerminalError | typeof WaitingError; message: RegExp };
}[] = [
  {
    name: 'the StorageZone id becomes the origin',
    spec: REF,
    zone: zone({ storageZoneId: 42, ownership: { account: 'acct' } }),
    want: 42,
  },
  {
    name: 'a string id in status is accepted',
    spec: REF,
    zone: zone({ storageZoneId: '43' }),
    want: 43,
  },
  {
    name: 'missing StorageZone: waits',
    spec: REF,
    error: { type: WaitingError, message: /StorageZone team-a\/files was not found/ },
  },
  {
    name: 'StorageZone without an id yet: waits',
    spec: REF,
    zone: zone({}),
    error: { type: WaitingError, message: /has no status\.storageZoneId yet/ },
  },
  {
    name: 'settings.originType conflicts',
    spec: { ...REF, settings: { originType: 'OriginUrl' } },
    zone: zone({ storageZoneId: 42 }),
    error: { type: TerminalError, message: /spec\.settings\.originType/ },
  },
  {
    name: 'settings.storageZoneId conflicts',
    spec: { ...REF, settings: { storageZoneId: 7 } },
    zone: zone({ storageZoneId: 42 }),
    error: { type: TerminalError, message: /spec\.settings\.storageZoneId/ },
  },
  {
    name: 'a StorageZone of another account is refused',
    spec: REF,
    zone: zone({ storageZoneId: 42, ownership: { account: 'other' } }),
    error: { type: TerminalError, message: /another account/ },
  },
  {
    name: 'deletion never waits for the StorageZone',
    spec: REF,
    deleting: true,
  },
  { name: 'no reference: no origin', spec: {}, zone: zone({ storageZoneId: 42 }) },
];

for (const c of cases) {
  test(`resolve: ${c.name}`, (t) => {
    const run = (): unknown =>
      resolveStorageOrigin(pzc(c.spec, c.deleting), lookup(c.zone), 'acct');
    if (c.error) {
      const err = t.throws(run);
      t.true(err instanceof c.error.type);
      t.regex(err?.message ?? '', c.error.message);
      return;
    }
    t.deepEqual(run(), c.want === undefined ? undefined : { storageZoneId: c.want });
  });
}

test('the wrapped client sees OriginType StorageZone and the id as settings', async (t) => {
  const seen: PullZoneConfig[] = [];
  const inner: ExternalClient<PullZoneConfig> = {
    account: 'acct',
    observe: (obj) => {
      seen.push(obj);
      return Promise.resolve({ exists: false, upToDate: false, diff: [] });
    },
    create: (obj) => {
      seen.push(obj);
      return Promise.resolve({ externalId: '1' });
    },
    update: (obj) => {
      seen.push(obj);
      return Promise.resolve();
    },
    delete: () => Promise.resolve(),
  };
  const wrapped = withStorageOrigin(inner, { storageZoneId: 42 });
  t.is(wrapped.account, 'acct');
  const obj = pzc({ ...REF, settings: { cacheControlMaxAgeOverrideSeconds: 60 } });
  const ctx = {} as Parameters<typeof wrapped.observe>[1];
  await wrapped.observe(obj, ctx);
  await wrapped.create(obj, ctx);
  await wrapped.update(obj, { exists: true, upToDate: false, diff: [] }, ctx);
  t.is(seen.length, 3);
  for (const o of seen) {
    t.like(toApiSettings(o.spec?.settings), {
      OriginType: 2,
      StorageZoneId: 42,
      CacheControlMaxAgeOverride: 60,
    });
  }
  t.is(withStorageOrigin(inner, undefined), inner, 'no reference: the client itself');
});
