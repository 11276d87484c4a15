/**
 * The StorageZone client (kit/crud-external.ts on storagezone/index.ts) against an in-process cdn-sim (strict: requests the official documents
 * do not allow are rejected): the calls it makes, the name check before create, NameTaken
 * without adoption, adoption by name, crash recovery of an unrecorded create, the password
 * Secret's data as connection details (the runtime publishes them; the kind writes nothing),
 * replication regions only added, delete keeping linked pull zones, and no password in any
 * status, condition or error.
 */
import test from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { scrubSecretValues } from '../../../../src/cdn/redact.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import {
  createStorageZoneKind,
  PASSWORD_SECRET,
  storageZoneResource,
} from '../../../../src/controllers/storagezone/index.js';
import type {
  StorageZone,
  StorageZoneSpec,
} from '../../../../src/controllers/storagezone/types.js';
import type { ExternalContext } from '../../../../src/runtime/types.js';

const API_KEY = 'unit-storage-key';
let sim: SimulatorHandle;
let client: CdnClient;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
});

test.after.always(async () => {
  await sim?.close();
});

/** The kind's external client (the kit's CRUD client on StorageZone's resource). */
function external(): CrudExternal<StorageZone, unknown> {
  return new CrudExternal(storageZoneResource({ client, account: 'acct' }));
}

function objectOf(name: string, spec: StorageZoneSpec, uid = `uid-${name}`): StorageZone {
  return {
    apiVersion: 'storage.cdn.operator.io/v1beta1',
    kind: 'StorageZone',
    metadata: { name, namespace: 'team-a', uid, generation: 1 },
    spec: spec as StorageZone['spec'],
  };
}

function ctxOf(externalId?: string, createPending = false): ExternalContext {
  return {
    externalId,
    createPending,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}

async function writesSince(before: number): Promise<string[]> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  const body = (await res.json()) as { log: { method: string; route: string }[] };
  return body.log.slice(before).map((c) => c.route);
}

async function callCount(): Promise<number> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  return ((await res.json()) as { log: unknown[] }).log.length;
}

test.serial(
  'create: name check, one add; observe returns both passwords as connection details',
  async (t) => {
    const ext = external();
    const obj = objectOf('unit-create', {
      region: 'NY',
      replicationRegions: ['DE'],
      zoneTier: 'Edge',
    });
    const before = await callCount();
    const created = await ext.create(obj, ctxOf());
    t.deepEqual(await writesSince(before), [
      'POST /storagezone/checkavailability',
      'POST /storagezone',
    ]);
    const live = sim.state.storageZones.get(Number(created.externalId))!;
    t.like(live, { Name: 'unit-create', Region: 'NY', ZoneTier: 1, ReplicationRegions: ['DE'] });
    t.false(created.available, 'not usable before its Secret exists');
    t.is(created.connectionDetails?.password, live.Password as string);

    const obs = await ext.observe(obj, ctxOf(created.externalId));
    t.true(obs.upToDate);
    t.is(obs.notReady, undefined);
    t.is(obs.conditions, undefined, 'no OutputsReady from the kind: the runtime publishes');
    const details = obs.connectionDetails ?? {};
    t.is(details.password, live.Password as string);
    t.is(details.readOnlyPassword, live.ReadOnlyPassword as string);
    t.is(details.hostname, 'ny.storage.bunnycdn.com');
    t.is(details.storageZoneName, 'unit-create');
    t.is(details.storageZoneId, created.externalId);
    t.false(JSON.stringify(obs.status).includes(String(live.Password)), 'no password in status');
  },
);

test.serial(
  'a taken name is NameTaken, never adopted, and says whether this account holds it',
  async (t) => {
    const ext = external();
    const first = objectOf('unit-taken', { region: 'DE' });
    await ext.create(first, ctxOf());
    const zones = sim.state.storageZones.size;
    const second = objectOf('unit-taken', { region: 'DE' }, 'uid-other');
    const err = await t.throwsAsync(ext.create(second, ctxOf()));
    t.is((err as { reason?: string }).reason, 'NameTaken');
    t.regex(err?.message ?? '', /already exists in this account; adopt it explicitly/);
    t.is(sim.state.storageZones.size, zones, 'nothing created');
  },
);

test.serial('adoption ByName finds the zone; without it nothing is looked up', async (t) => {
  const ext = external();
  const made = await ext.create(objectOf('unit-adopt', { region: 'SG' }), ctxOf());
  const plain = await ext.observe(objectOf('unit-adopt', { region: 'SG' }, 'uid-b'), ctxOf());
  t.false(plain.exists, 'no adoption asked: the zone is not taken over');
  const adopted = await ext.observe(
    objectOf('unit-adopt', { adoption: { policy: 'ByName' } }, 'uid-b'),
    ctxOf(),
  );
  t.is(adopted.externalId, made.externalId);
  const missing = await t.throwsAsync(
    ext.observe(objectOf('unit-nope', { adoption: { policy: 'ByName' } }), ctxOf()),
  );
  t.is((missing as { reason?: string }).reason, 'NotFound');
});

test.serial(
  'adoption by name uses the platform case rule: zone names are unique without case',
  async (t) => {
    const ext = external();
    const made = await ext.create(objectOf('sec-files-a', { region: 'DE' }), ctxOf());
    const upper = objectOf('x', { name: 'SEC-FILES-A', adoption: { policy: 'ByName' } }, 'uid-c');
    t.is((await ext.observe(upper, ctxOf())).externalId, made.externalId);
  },
);

test.serial(
  'crash recovery: a pending create finds its own zone; one claimed by another is skipped',
  async (t) => {
    const ext = external();
    const made = await ext.create(objectOf('unit-pending', { region: 'DE' }), ctxOf());
    const obj = objectOf('unit-pending', { region: 'DE' });
    const found = await ext.observe(obj, ctxOf(undefined, true));
    t.is(found.externalId, made.externalId);
    const claimed = await ext.observe(obj, {
      ...ctxOf(undefined, true),
      claimedByOther: (type, id) => type === 'StorageZone' && id === made.externalId,
    });
    t.false(claimed.exists);
  },
);

test.serial(
  'replication region added: one update with the whole list; removal is never sent',
  async (t) => {
    const ext = external();
    const made = await ext.create(
      objectOf('unit-repl', { region: 'DE', replicationRegions: ['NY'] }),
      ctxOf(),
    );
    const obj = objectOf('unit-repl', { region: 'DE', replicationRegions: ['NY', 'LA'] });
    const obs = await ext.observe(obj, ctxOf(made.externalId));
    t.deepEqual(
      obs.diff.map((d) => d.field),
      ['ReplicationRegions'],
    );
    const before = await callCount();
    const res = await ext.update(obj, obs, ctxOf(made.externalId));
    t.deepEqual(await writesSince(before), ['POST /storagezone/{id}', 'GET /storagezone/{id}']);
    t.deepEqual(sim.state.storageZones.get(Number(made.externalId))?.ReplicationRegions, [
      'NY',
      'LA',
    ]);
    t.like(res ? res.status : undefined, { replicationRegions: ['NY', 'LA'] });
    const fewer = objectOf('unit-repl', { region: 'DE', replicationRegions: ['LA'] });
    t.true((await ext.observe(fewer, ctxOf(made.externalId))).upToDate);
  },
);

test.serial(
  'region or tier changed after creation: a terminal InvalidSpec naming the field',
  async (t) => {
    const ext = external();
    const made = await ext.create(objectOf('unit-immut', { region: 'DE' }), ctxOf());
    const err = await t.throwsAsync(
      ext.observe(objectOf('unit-immut', { region: 'LA' }), ctxOf(made.externalId)),
    );
    t.is((err as { reason?: string }).reason, 'InvalidSpec');
    t.regex(err?.message ?? '', /spec\.region is LA/);
  },
);

test.serial(
  'delete: keeps the pull zones serving from the zone; a zone already gone is success',
  async (t) => {
    const ext = external();
    const obj = objectOf('unit-delete', { region: 'DE' });
    const made = await ext.create(obj, ctxOf());
    const id = Number(made.externalId);
    const pull = await client.addPullZone({
      Name: 'unit-delete-pull',
      OriginType: 2,
      StorageZoneId: id,
    });
    await ext.delete(obj, ctxOf(made.externalId));
    t.false(sim.state.storageZones.has(id));
    t.true(sim.state.pullZones.has(Number(pull.Id)), 'linked pull zone kept');
    await t.notThrowsAsync(ext.delete(obj, ctxOf(made.externalId)));
  },
);

test.serial('passwords are registered for redaction as soon as a zone is read', async (t) => {
  const ext = external();
  const made = await ext.create(objectOf('unit-redact', { region: 'DE' }), ctxOf());
  const pw = String(sim.state.storageZones.get(Number(made.externalId))?.Password);
  t.false(scrubSecretValues(`error echoing ${pw}`).includes(pw));
});

test.serial(
  'kind wiring: id field, adoption id, credential references, the password Secret declared',
  (t) => {
    const kind = createStorageZoneKind({ apiBaseUrl: sim.url, log: pino({ level: 'silent' }) });
    t.is(kind.idStatusField, 'storageZoneId');
    t.is(kind.specExternalId?.(objectOf('x', { adoption: { policy: 'ById', id: 5 } })), '5');
    const withPw = objectOf('x', {
      credentialsRef: { name: 'key' },
      outputSecretRef: { name: 'pw' },
    });
    t.deepEqual(kind.references?.(withPw), [
      { apiVersion: 'v1', kind: 'Secret', namespace: 'team-a', name: 'key' },
    ]);
    t.is(kind.connectionSecret, PASSWORD_SECRET);
    t.is(PASSWORD_SECRET.nameOf(withPw), 'pw');
    t.is(PASSWORD_SECRET.nameOf(objectOf('x', {})), 'x-storagezone');
    t.is(PASSWORD_SECRET.requiredForReady, 'PasswordSecretNotReady');
    t.deepEqual(kind.references?.(objectOf('x', { accountRef: { name: 'shared' } })), [
      {
        apiVersion: 'accounts.cdn.operator.io/v1beta1',
        kind: 'CdnAccount',
        namespace: '',
        name: 'shared',
      },
      { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'team-a' },
    ]);
  },
);

test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
