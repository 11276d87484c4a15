/**
 * StorageZone end to end, driven with `kubectl apply` against a real kube-apiserver, a real
 * operator process and cdn-sim (strict): create with the name check and its password Secret
 * (compared with what cdn-sim holds), a replication region added, a PullZoneConfig serving from
 * it through spec.storageZoneRef (waiting first, then re-reconciled by the reference watch),
 * adoption by id and by name, NameTaken without adoption, a foreign Secret left untouched,
 * apiserver validation, deletion with Delete and Orphan, and nothing cdn-sim rejected.
 */
import test from 'ava';
import {
  apply,
  conditionOf,
  deleteObject,
  getObject,
  kubectl,
  kubectlRaw,
  waitFor,
  type KubeJson,
  waitForCondition,
} from '../support/kube.js';
import { accountJson, deleteAccount, namespacesSelector } from '../support/account.js';
import { secretYaml, startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';

const RESOURCE = 'storagezones.storage.cdn.operator.io';
const PZC = 'pullzoneconfigs.pullzones.cdn.operator.io';
const API_KEY = 'e2e-storage-key';

let env: OperatorEnv;

test.before(async () => {
  env = await startOperatorEnv('e2e-sz', API_KEY);
});

test.after.always(async () => {
  await env?.stop();
});

function yamlOf(kind: string, name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name, namespace: env.ns },
    spec,
  });
}

function waitCondition(
  resource: string,
  name: string,
  type: string,
  status: string,
  reason?: string,
  timeoutMs = 60_000,
): Promise<KubeJson> {
  return waitForCondition(resource, env.ns, name, type, status, reason, timeoutMs);
}

async function simCalls(): Promise<
  { method: string; route: string; path: string; name?: string }[]
> {
  const res = await fetch(`${env.sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': env.sim.adminToken },
  });
  return (
    (await res.json()) as { log: { method: string; route: string; path: string; name?: string }[] }
  ).log;
}

/**
 * The platform calls an object named `name` could have made: every write, and every call whose
 * path names it (a lookup by name). The other objects' periodic reads and list sweeps, which
 * may land in any window, are not counted.
 */
async function callsFor(name: string): Promise<number> {
  return (await simCalls()).filter(
    (c) => c.method !== 'GET' || c.path.includes(name) || c.name === name,
  ).length;
}

async function storageWrites(): Promise<string[]> {
  return (await simCalls())
    .filter((c) => c.method !== 'GET' && c.path.startsWith('/storagezone'))
    .map((c) => c.route);
}

async function secretData(name: string): Promise<Record<string, string>> {
  const secret = await waitFor(() => getObject('secret', env.ns, name), 30_000, `Secret ${name}`);
  return Object.fromEntries(
    Object.entries((secret.data ?? {}) as Record<string, string>).map(([k, v]) => [
      k,
      Buffer.from(v, 'base64').toString('utf8'),
    ]),
  );
}

/** Creates a storage zone directly on cdn-sim (as if made outside Kubernetes). */
async function seedZone(name: string): Promise<number> {
  const res = await fetch(`${env.sim.url}/storagezone`, {
    method: 'POST',
    headers: { AccessKey: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ Name: name, Region: 'DE' }),
  });
  return ((await res.json()) as { Id: number }).Id;
}

async function idOf(name: string): Promise<number> {
  const obj = await waitCondition(RESOURCE, name, 'Ready', 'True');
  return Number(obj.status?.storageZoneId);
}

test.serial(
  'create: name check then one add; Ready; the Secret holds what cdn-sim holds',
  async (t) => {
    const before = (await storageWrites()).length;
    await apply(
      yamlOf('StorageZone', 'files', {
        name: 'e2e-files',
        region: 'NY',
        replicationRegions: ['DE'],
        zoneTier: 'Edge',
      }),
    );
    const obj = await waitCondition(RESOURCE, 'files', 'Ready', 'True');
    await waitCondition(RESOURCE, 'files', 'Synced', 'True');
    await waitCondition(RESOURCE, 'files', 'OutputsReady', 'True', 'OutputsWritten');
    t.deepEqual((await storageWrites()).slice(before), [
      'POST /storagezone/checkavailability',
      'POST /storagezone',
    ]);
    const id = Number(obj.status?.storageZoneId);
    const live = env.sim.state.storageZones.get(id);
    t.like(live, { Name: 'e2e-files', Region: 'NY', ZoneTier: 1, ReplicationRegions: ['DE'] });
    t.like(obj.status, { region: 'NY', zoneTier: 'Edge', hostname: 'ny.storage.bunnycdn.com' });

    const data = await secretData('files-storagezone');
    t.is(data.password, live?.Password as string);
    t.is(data.readOnlyPassword, live?.ReadOnlyPassword as string);
    t.is(data.hostname, 'ny.storage.bunnycdn.com');
    t.is(data.storageZoneName, 'e2e-files');
    t.is(data.storageZoneId, String(id));
    const statusText = JSON.stringify(await getObject(RESOURCE, env.ns, 'files'));
    t.false(statusText.includes(String(live?.Password)), 'no password in the object');

    const table = await kubectl(['get', 'sz', 'files', '-n', env.ns]);
    t.regex(table, /NAME\s+READY\s+SYNCED\s+ID\s+REGION\s+HOSTNAME\s+AGE/);
    t.regex(
      table,
      new RegExp(`files\\s+True\\s+True\\s+${id}\\s+NY\\s+ny\\.storage\\.bunnycdn\\.com`),
    );
  },
);

test.serial(
  'a password reset outside Kubernetes reaches the Secret at the next poll',
  async (t) => {
    await apply(
      JSON.stringify({
        apiVersion: 'storage.cdn.operator.io/v1beta1',
        kind: 'StorageZone',
        metadata: {
          name: 'files',
          namespace: env.ns,
          annotations: { 'cdn.operator.io/poll-interval': '5s' },
        },
        spec: { name: 'e2e-files', region: 'NY', replicationRegions: ['DE'], zoneTier: 'Edge' },
      }),
    );
    const id = await idOf('files');
    await fetch(`${env.sim.url}/storagezone/${id}/resetPassword`, {
      method: 'POST',
      headers: { AccessKey: API_KEY },
    });
    const fresh = env.sim.state.storageZones.get(id)?.Password;
    await waitFor(
      async () => (await secretData('files-storagezone')).password === fresh,
      30_000,
      'Secret updated with the new password',
      500,
    );
    t.pass();
  },
);

test.serial(
  'a replication region added: one update; removing one is refused by the apiserver',
  async (t) => {
    const id = await idOf('files');
    const before = (await storageWrites()).length;
    await apply(
      yamlOf('StorageZone', 'files', {
        name: 'e2e-files',
        region: 'NY',
        replicationRegions: ['DE', 'SYD'],
        zoneTier: 'Edge',
      }),
    );
    await waitFor(
      () =>
        (env.sim.state.storageZones.get(id)?.ReplicationRegions as string[] | undefined)?.includes(
          'SYD',
        ) === true,
      30_000,
      'SYD replicated',
    );
    await waitCondition(RESOURCE, 'files', 'Synced', 'True');
    await new Promise((r) => setTimeout(r, 1500));
    t.deepEqual((await storageWrites()).slice(before), ['POST /storagezone/{id}']);
    t.deepEqual(env.sim.state.storageZones.get(id)?.ReplicationRegions, ['DE', 'SYD']);

    const removed = await kubectlRaw(
      ['apply', '-f', '-'],
      yamlOf('StorageZone', 'files', {
        name: 'e2e-files',
        region: 'NY',
        replicationRegions: ['SYD'],
        zoneTier: 'Edge',
      }),
    );
    t.not(removed.code, 0);
    t.regex(removed.stderr, /replication regions can only be added/);
    const moved = await kubectlRaw([
      'patch',
      'sz',
      'files',
      '-n',
      env.ns,
      '--type',
      'merge',
      '-p',
      '{"spec":{"region":"LA"}}',
    ]);
    t.not(moved.code, 0);
    t.regex(moved.stderr, /region is immutable/);
  },
);

test.serial(
  'a PullZoneConfig with storageZoneRef waits for the StorageZone, then serves from it',
  async (t) => {
    await apply(yamlOf('PullZoneConfig', 'cdn', { storageZoneRef: { name: 'later' } }));
    await waitCondition(PZC, 'cdn', 'Ready', 'False', 'ReferenceNotReady');
    t.false(
      [...env.sim.state.pullZones.values()].some((z) => z.record.Name === 'cdn'),
      'no pull zone before the storage zone exists',
    );
    await apply(yamlOf('StorageZone', 'later', { region: 'DE' }));
    const storageId = await idOf('later');
    const pzc = await waitCondition(PZC, 'cdn', 'Ready', 'True');
    const record = env.sim.state.pullZones.get(Number(pzc.status?.pullZoneId))?.record;
    t.like(record, { Name: 'cdn', OriginType: 2, StorageZoneId: storageId });
    const zone = await (
      await fetch(`${env.sim.url}/storagezone/${storageId}`, { headers: { AccessKey: API_KEY } })
    ).json();
    t.deepEqual(
      (zone as { PullZones: { Id: number }[] }).PullZones.map((z) => z.Id),
      [Number(pzc.status?.pullZoneId)],
      'the storage zone lists the pull zone serving from it',
    );

    const conflict = await kubectlRaw(
      ['apply', '-f', '-'],
      yamlOf('PullZoneConfig', 'cdn', {
        storageZoneRef: { name: 'later' },
        settings: { originType: 'OriginUrl' },
      }),
    );
    t.not(conflict.code, 0);
    t.regex(conflict.stderr, /storageZoneRef sets the origin/);
  },
);

test.serial(
  "adopt by id: no create, the Secret gets the zone's password, Orphan by default",
  async (t) => {
    const seeded = await seedZone('e2e-made-elsewhere');
    const zones = env.sim.state.storageZones.size;
    await apply(yamlOf('StorageZone', 'by-id', { adoption: { policy: 'ById', id: seeded } }));
    const obj = await waitCondition(RESOURCE, 'by-id', 'Ready', 'True');
    t.is(Number(obj.status?.storageZoneId), seeded);
    t.is(env.sim.state.storageZones.size, zones, 'nothing created');
    t.is(
      (await secretData('by-id-storagezone')).password,
      env.sim.state.storageZones.get(seeded)?.Password as string,
    );
    t.like((obj.status as { ownership?: unknown }).ownership, {
      adopted: true,
      deletionPolicy: 'Orphan',
    });
    // One object per zone: a second object naming the same id is refused, nothing written.
    await apply(yamlOf('StorageZone', 'by-id-twice', { adoption: { policy: 'ById', id: seeded } }));
    const twice = await waitCondition(RESOURCE, 'by-id-twice', 'Synced', 'False', 'AlreadyManaged');
    t.regex(conditionOf(twice, 'Synced')?.message ?? '', /StorageZone .*\/by-id/);
    t.is(await getObject('secret', env.ns, 'by-id-twice-storagezone'), undefined);
    await deleteObject(RESOURCE, env.ns, 'by-id-twice');
    await waitFor(
      async () => (await getObject(RESOURCE, env.ns, 'by-id-twice')) === undefined,
      60_000,
      'by-id-twice gone',
    );
    t.true(env.sim.state.storageZones.has(seeded), 'deleting the refused object deletes nothing');
    await deleteObject(RESOURCE, env.ns, 'by-id');
    await waitFor(
      async () => (await getObject(RESOURCE, env.ns, 'by-id')) === undefined,
      60_000,
      'by-id gone',
    );
    t.true(env.sim.state.storageZones.has(seeded), 'an adopted zone is left in place');
  },
);

test.serial(
  'adopt by name; without adoption an existing name is NameTaken and nothing is created',
  async (t) => {
    const seeded = await seedZone('e2e-legacy');
    const zones = env.sim.state.storageZones.size;
    await apply(yamlOf('StorageZone', 'taken', { name: 'e2e-legacy', region: 'DE' }));
    const taken = await waitCondition(RESOURCE, 'taken', 'Synced', 'False', 'NameTaken');
    t.regex(conditionOf(taken, 'Synced')?.message ?? '', /adopt it explicitly/);
    t.is(env.sim.state.storageZones.size, zones);
    await deleteObject(RESOURCE, env.ns, 'taken');
    await waitFor(
      async () => (await getObject(RESOURCE, env.ns, 'taken')) === undefined,
      60_000,
      'taken gone',
    );

    await apply(
      yamlOf('StorageZone', 'legacy', { name: 'e2e-legacy', adoption: { policy: 'ByName' } }),
    );
    const obj = await waitCondition(RESOURCE, 'legacy', 'Ready', 'True');
    t.is(Number(obj.status?.storageZoneId), seeded);
    t.is(env.sim.state.storageZones.size, zones);
  },
);

test.serial('a Secret this object does not own is left untouched and reported', async (t) => {
  await apply(secretYaml(env.ns, 'shared-creds', { password: 'not-yours' }));
  await apply(
    yamlOf('StorageZone', 'foreign', { region: 'SG', outputSecretRef: { name: 'shared-creds' } }),
  );
  const obj = await waitCondition(RESOURCE, 'foreign', 'OutputsReady', 'False', 'SecretNotOwned');
  t.like(conditionOf(obj, 'Ready'), { status: 'False', reason: 'PasswordSecretNotReady' });
  t.deepEqual(await secretData('shared-creds'), { password: 'not-yours' });
});

test.serial(
  'delete with Delete removes the zone (its pull zones stay); Orphan keeps it',
  async (t) => {
    await apply(yamlOf('StorageZone', 'kept', { region: 'DE', deletionPolicy: 'Orphan' }));
    const keptId = await idOf('kept');
    const laterId = await idOf('later');
    const pullId = Number((await getObject(PZC, env.ns, 'cdn'))?.status?.pullZoneId);
    await deleteObject(RESOURCE, env.ns, 'later');
    await deleteObject(RESOURCE, env.ns, 'kept');
    for (const name of ['later', 'kept'])
      await waitFor(
        async () => (await getObject(RESOURCE, env.ns, name)) === undefined,
        60_000,
        `${name} gone`,
      );
    t.false(env.sim.state.storageZones.has(laterId));
    t.true(
      env.sim.state.pullZones.has(pullId),
      'the pull zone serving from it is not deleted with it',
    );
    t.true(env.sim.state.storageZones.has(keptId));
  },
);

test.serial(
  'an account not open to the namespace is refused before any platform call',
  async (t) => {
    const account = `${env.ns}-closed`;
    await apply(
      accountJson(account, 'cdn-credentials', namespacesSelector('some-other-namespace')),
    );
    try {
      const calls = await callsFor('closed');
      await apply(yamlOf('StorageZone', 'closed', { region: 'DE', accountRef: { name: account } }));
      const obj = await waitCondition(RESOURCE, 'closed', 'Synced', 'False', 'AccountNotAllowed');
      t.regex(conditionOf(obj, 'Synced')?.message ?? '', /namespaceSelector does not select/);
      t.is(await callsFor('closed'), calls, 'no platform call');
      await deleteObject(RESOURCE, env.ns, 'closed');
    } finally {
      await deleteAccount(account);
    }
  },
);

// Runs last (serial): every request of this file.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
