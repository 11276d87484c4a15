/**
 * Issue 27 item 3: connection Secrets (StorageZone's passwords, PullZoneConfig's outputs) are
 * published by the runtime, after the claim check and the leader fence. The real kinds run
 * through the real reconciler against cdn-sim with an in-memory Secret store:
 * - a second namespace's ByName adopter of another object's zone is refused AlreadyManaged and
 *   gets no Secret (before: the kind's observe wrote the victim's password / zoneSecurityKey);
 * - a deposed leader writes no Secret (before: observe wrote it whatever the fence said);
 * - otherwise the Secret is written once (the create pass included), with the object as its
 *   controller, and not for dry-run or deleting objects.
 */
import test from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { createPullZoneConfigKind } from '../../../../src/controllers/pullzoneconfig/index.js';
import { createStorageZoneKind } from '../../../../src/controllers/storagezone/index.js';
import { ClaimIndex } from '../../../../src/runtime/claims.js';
import { claimsOfObject } from '../../../../src/runtime/claims-policy.js';
import { findCondition } from '../../../../src/runtime/conditions.js';
import type {
  OwnerReference,
  SecretAccess,
  StoredSecret,
} from '../../../../src/runtime/connection-secret.js';
import { ManagedReconciler } from '../../../../src/runtime/reconciler.js';
import { StatusWriter } from '../../../../src/runtime/status-writer.js';
import type { ManagedKind, ManagedObject } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { FakeEnv } from '../../runtime/fake-env.js';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';

const API_KEY = 'published-secrets-key';
let sim: SimulatorHandle;
let client: CdnClient;
let szKind: ManagedKind;
let pzcKind: ManagedKind;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
  const deps = { apiBaseUrl: sim.url, log: pino({ level: 'silent' }) };
  szKind = createStorageZoneKind(deps);
  pzcKind = createPullZoneConfigKind(deps);
});

test.after.always(async () => {
  await sim?.close();
});

/** Secrets in memory, recording every write (`namespace/name`). */
function memorySecrets(): SecretAccess & { writes: string[]; secrets: Map<string, StoredSecret> } {
  const secrets = new Map<string, StoredSecret>();
  const writes: string[] = [];
  return {
    writes,
    secrets,
    get: (ns, name) => Promise.resolve(secrets.get(`${ns}/${name}`)),
    create(ns, name, owner: OwnerReference, data) {
      writes.push(`${ns}/${name}`);
      secrets.set(`${ns}/${name}`, { resourceVersion: '1', ownerReferences: [owner], data });
      return Promise.resolve();
    },
    patchData(ns, name) {
      writes.push(`${ns}/${name}`);
      return Promise.resolve();
    },
  };
}

/** The object as the fake apiserver holds it. */
function stored(env: FakeEnv, key: string): ManagedObject {
  return structuredClone(env.objects.get(key)!);
}

interface Setup {
  env: FakeEnv;
  secrets: ReturnType<typeof memorySecrets>;
  claims: ClaimIndex;
  reconciler: ManagedReconciler;
}

function setup(kind: ManagedKind, objects: ManagedObject[], mayWrite?: () => boolean): Setup {
  const env = new FakeEnv();
  const stored = objects.map((o) => env.put(o));
  const claims = new ClaimIndex();
  for (const o of stored) claims.set(kind.kind, o, claimsOfObject(kind, o), undefined);
  const writer = env.writer();
  const secrets = memorySecrets();
  const reconciler = new ManagedReconciler({
    kind,
    getCached: (key) => (env.objects.has(key) ? structuredClone(env.objects.get(key)!) : undefined),
    storeWritten: () => undefined,
    writer,
    status: new StatusWriter((o, p) => writer.patchStatus(o, p)),
    connectContext: (log) => ({
      log,
      readSecret: () => Promise.resolve({ apiKey: API_KEY }),
      readConfigMap: () => Promise.resolve(undefined),
      getObject: () => undefined,
    }),
    events: { record: () => undefined },
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
    claims,
    secrets,
    ...(mayWrite ? { mayWrite } : {}),
  });
  return { env, secrets, claims, reconciler };
}

function obj(
  kind: string,
  ns: string,
  name: string,
  spec: Record<string, unknown>,
  extra: {
    status?: Record<string, unknown>;
    created?: string;
    annotations?: Record<string, string>;
  } = {},
): ManagedObject {
  return {
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: {
      name,
      namespace: ns,
      uid: `uid-${ns}-${name}`,
      creationTimestamp: extra.created ?? '2025-01-02T00:00:00Z',
      ...(extra.annotations ? { annotations: extra.annotations } : {}),
    },
    spec: { credentialsRef: { name: 'creds' }, ...spec },
    ...(extra.status ? { status: extra.status } : {}),
  };
}

/** The victim: an object in team-a that created (recorded) the zone long ago. */
function victim(
  kind: string,
  name: string,
  zoneSpec: Record<string, unknown>,
  status: Record<string, unknown>,
): ManagedObject {
  return obj(kind, 'team-a', name, zoneSpec, { status, created: '2025-01-01T00:00:00Z' });
}

test('StorageZone: a refused ByName adopter gets no Secret', async (t) => {
  const zone = await client.addStorageZone({ Name: 'victim-files', Region: 'DE' });
  const { secrets, reconciler, env } = setup(szKind, [
    victim('StorageZone', 'files', { name: 'victim-files' }, { storageZoneId: zone.Id }),
    obj('StorageZone', 'team-b', 'steal', { name: 'victim-files', adoption: { policy: 'ByName' } }),
  ]);
  const res = await reconciler.reconcile('team-b/steal');
  t.is(res.outcome, 'terminal');
  const synced = findCondition(stored(env, 'team-b/steal').status?.conditions, 'Synced');
  t.like(synced, { status: 'False', reason: 'AlreadyManaged' });
  t.deepEqual(secrets.writes, [], 'no Secret for a refused object');
});

test('PullZoneConfig: a refused ByName adopter gets no outputs Secret', async (t) => {
  const zone = await client.addPullZone({
    Name: 'victim-zone',
    OriginUrl: 'https://o.example.com',
  });
  const { secrets, reconciler, env } = setup(pzcKind, [
    victim('PullZoneConfig', 'zone', { name: 'victim-zone' }, { pullZoneId: zone.Id }),
    obj('PullZoneConfig', 'team-b', 'steal', {
      name: 'victim-zone',
      adoption: { policy: 'ByName' },
      outputSecretRef: { name: 'stolen' },
    }),
  ]);
  const res = await reconciler.reconcile('team-b/steal');
  t.is(res.outcome, 'terminal');
  const synced = findCondition(stored(env, 'team-b/steal').status?.conditions, 'Synced');
  t.like(synced, { status: 'False', reason: 'AlreadyManaged' });
  t.deepEqual(secrets.writes, [], 'no Secret for a refused object');
});

test('a deposed leader writes no Secret; the same pass as leader does', async (t) => {
  const zone = await client.addStorageZone({ Name: 'fenced-files', Region: 'DE' });
  const object = obj(
    'StorageZone',
    'team-a',
    'files',
    { name: 'fenced-files' },
    {
      status: { storageZoneId: zone.Id },
    },
  );
  let leader = false;
  const { secrets, reconciler, env } = setup(szKind, [object], () => leader);
  const fenced = await reconciler.reconcile('team-a/files');
  t.is(fenced.outcome, 'error');
  t.deepEqual(secrets.writes, [], 'a deposed leader writes nothing');
  t.is(findCondition(stored(env, 'team-a/files').status?.conditions, 'OutputsReady'), undefined);

  leader = true;
  const led = await reconciler.reconcile('team-a/files');
  t.is(led.outcome, 'success');
  t.deepEqual(secrets.writes, ['team-a/files-storagezone']);
  const secret = secrets.secrets.get('team-a/files-storagezone');
  t.like(secret?.ownerReferences[0], {
    kind: 'StorageZone',
    uid: 'uid-team-a-files',
    controller: true,
  });
  t.is(secret?.data.password, String(sim.state.storageZones.get(Number(zone.Id))?.Password));
  const status = stored(env, 'team-a/files').status;
  t.like(findCondition(status?.conditions, 'OutputsReady'), { status: 'True' });
  t.like(findCondition(status?.conditions, 'Ready'), { status: 'True' });
  t.false(JSON.stringify(status).includes(String(secret?.data.password)), 'no password in status');
  await reconciler.reconcile('team-a/files');
  t.is(secrets.writes.length, 1, 'in sync: no second write');
});

test('the create pass publishes: one Secret write, Ready in the same status write', async (t) => {
  const { secrets, reconciler, env } = setup(szKind, [
    obj('StorageZone', 'team-a', 'fresh', { name: 'fresh-files', region: 'DE' }),
  ]);
  const res = await reconciler.reconcile('team-a/fresh');
  t.is(res.outcome, 'success');
  t.deepEqual(secrets.writes, ['team-a/fresh-storagezone']);
  t.is(env.writes.status, 1, 'one status write for the create');
  const status = stored(env, 'team-a/fresh').status;
  t.like(findCondition(status?.conditions, 'Ready'), { status: 'True' });
  t.like(findCondition(status?.conditions, 'OutputsReady'), {
    status: 'True',
    reason: 'OutputsWritten',
  });
});

test('a Secret the object does not control keeps a StorageZone not Ready', async (t) => {
  const zone = await client.addStorageZone({ Name: 'foreign-files', Region: 'DE' });
  const { secrets, reconciler, env } = setup(szKind, [
    obj(
      'StorageZone',
      'team-a',
      'foreign',
      { name: 'foreign-files' },
      { status: { storageZoneId: zone.Id } },
    ),
  ]);
  secrets.secrets.set('team-a/foreign-storagezone', {
    resourceVersion: '3',
    ownerReferences: [],
    data: { password: 'someone-elses-value' },
  });
  const res = await reconciler.reconcile('team-a/foreign');
  t.is(
    res.requeueAfterMs !== undefined && res.requeueAfterMs <= 15_000,
    true,
    'checked again soon',
  );
  t.deepEqual(secrets.writes, []);
  const status = stored(env, 'team-a/foreign').status;
  t.like(findCondition(status?.conditions, 'OutputsReady'), {
    status: 'False',
    reason: 'SecretNotOwned',
  });
  t.like(findCondition(status?.conditions, 'Ready'), {
    status: 'False',
    reason: 'PasswordSecretNotReady',
  });
});

test('dry-run and deleting objects publish nothing', async (t) => {
  const zone = await client.addPullZone({ Name: 'quiet-zone', OriginUrl: 'https://o.example.com' });
  const status = { pullZoneId: zone.Id };
  const { secrets, reconciler, env } = setup(pzcKind, [
    obj(
      'PullZoneConfig',
      'team-a',
      'dry',
      { name: 'quiet-zone', outputSecretRef: { name: 'out' } },
      {
        status,
        annotations: { 'cdn.operator.io/dry-run': 'true' },
      },
    ),
  ]);
  await reconciler.reconcile('team-a/dry');
  t.deepEqual(secrets.writes, []);
  const gone = stored(env, 'team-a/dry');
  gone.metadata.annotations = {};
  gone.metadata.deletionTimestamp = '2025-01-03T00:00:00Z';
  gone.metadata.finalizers = ['cdn.operator.io/finalizer'];
  env.put(gone);
  await reconciler.reconcile('team-a/dry');
  t.deepEqual(secrets.writes, []);
});
