/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return -- storage answers are read loosely here */
/**
 * cdn-sim's storage endpoint for files (issue 49): upload, download, list, describe and delete
 * in a storage zone with the zone's password as the key, as the platform's Edge Storage API
 * answers them (the vendor's Terraform provider and the platform's storage libraries read these
 * answers). Requests follow the vendor's client: `PUT /<zone>//index.html` (its paths start
 * with a slash), `DESCRIBE` for a file's object, `DELETE`.
 */
import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, startTestSim } from '../../support/sim-client.js';
import { createStorageZone, storageCall } from './storage-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

/** `<p>test-1</p>` and its checksum, as the vendor's acceptance test writes and expects them. */
const CONTENT = '<p>test-1</p>';
const CHECKSUM = '1EC877C32873420A7C2320916964BE83B8EF755BBC7F9BAC1D37B66E013402C2';

test("the vendor's file flow: PUT with its checksum, DESCRIBE, GET, DELETE", async (t) => {
  const zone = await createStorageZone(t, sim, 'files-flow');
  const put = await storageCall(sim, {
    method: 'PUT',
    path: `/${zone.name}//index.html`,
    key: zone.password,
    body: CONTENT,
    headers: { Checksum: CHECKSUM },
  });
  t.is(put.status, 201, put.text);
  t.like(put.json(), { HttpCode: 201 });
  const described = await storageCall(sim, {
    method: 'DESCRIBE',
    path: `/${zone.name}//index.html`,
    key: zone.password,
  });
  t.is(described.status, 200, described.text);
  const object = described.json() as any;
  t.like(object, {
    StorageZoneName: zone.name,
    StorageZoneId: zone.id,
    Path: `/${zone.name}/`,
    ObjectName: 'index.html',
    Length: 13,
    Checksum: CHECKSUM,
    IsDirectory: false,
    ContentType: 'text/html',
  });
  t.is(object.Guid.length, 36, 'a Guid, as the platform libraries check');
  t.regex(object.DateCreated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
  const got = await storageCall(sim, {
    method: 'GET',
    path: `/${zone.name}/index.html`,
    key: zone.password,
  });
  t.is(got.text, CONTENT);
  t.regex(got.contentType, /^text\/html/);
  const deleted = await storageCall(sim, {
    method: 'DELETE',
    path: `/${zone.name}//index.html`,
    key: zone.password,
  });
  t.is(deleted.status, 200);
  for (const method of ['DESCRIBE', 'GET', 'DELETE']) {
    const gone = await storageCall(sim, {
      method,
      path: `/${zone.name}/index.html`,
      key: zone.password,
    });
    t.is(gone.status, 404, method);
  }
});

test('listing: a directory shows its subdirectories and files; deleting a directory takes everything under it', async (t) => {
  const zone = await createStorageZone(t, sim, 'files-list');
  for (const path of ['a.txt', 'img/b.png', 'img/deep/c.css']) {
    const res = await storageCall(sim, {
      method: 'PUT',
      path: `/${zone.name}/${path}`,
      key: zone.password,
      body: path,
    });
    t.is(res.status, 201);
  }
  const root = (
    await storageCall(sim, { method: 'GET', path: `/${zone.name}/`, key: zone.password })
  ).json() as any[];
  t.deepEqual(
    root.map((o) => [o.ObjectName, o.IsDirectory, o.Path]),
    [
      ['img', true, `/${zone.name}/`],
      ['a.txt', false, `/${zone.name}/`],
    ],
  );
  const img = (
    await storageCall(sim, { method: 'GET', path: `/${zone.name}/img/`, key: zone.password })
  ).json() as any[];
  t.deepEqual(
    img.map((o) => [o.ObjectName, o.IsDirectory, o.Path, o.ContentType]),
    [
      ['deep', true, `/${zone.name}/img/`, ''],
      ['b.png', false, `/${zone.name}/img/`, 'image/png'],
    ],
  );
  const dir = await storageCall(sim, {
    method: 'DELETE',
    path: `/${zone.name}/img/`,
    key: zone.password,
  });
  t.is(dir.status, 200);
  const after = (
    await storageCall(sim, { method: 'GET', path: `/${zone.name}/`, key: zone.password })
  ).json() as any[];
  t.deepEqual(
    after.map((o) => o.ObjectName),
    ['a.txt'],
  );
  const root404 = await storageCall(sim, {
    method: 'DELETE',
    path: `/${zone.name}/`,
    key: zone.password,
  });
  t.is(root404.status, 400, 'the root needs allowRootDelete=true');
  const rootDeleted = await storageCall(sim, {
    method: 'DELETE',
    path: `/${zone.name}/?allowRootDelete=true`,
    key: zone.password,
  });
  t.is(rootDeleted.status, 200);
});

const REFUSALS: Array<
  [
    string,
    (z: {
      name: string;
      password: string;
      readOnlyPassword: string;
    }) => Parameters<typeof storageCall>[1],
    number,
  ]
> = [
  ['no key', (z) => ({ method: 'GET', path: `/${z.name}/` }), 401],
  [
    "the account's API key",
    (z) => ({ method: 'GET', path: `/${z.name}/`, key: 'test-access-key' }),
    401,
  ],
  ['an unknown zone', (z) => ({ method: 'GET', path: '/no-such-zone/', key: z.password }), 401],
  [
    'the read-only password on a write',
    (z) => ({ method: 'PUT', path: `/${z.name}/x.txt`, key: z.readOnlyPassword, body: 'x' }),
    401,
  ],
  [
    'the read-only password on a read',
    (z) => ({ method: 'GET', path: `/${z.name}/`, key: z.readOnlyPassword }),
    200,
  ],
  [
    'a checksum that does not match',
    (z) => ({
      method: 'PUT',
      path: `/${z.name}/x.txt`,
      key: z.password,
      body: 'x',
      headers: { Checksum: CHECKSUM },
    }),
    400,
  ],
  [
    'a lower-case checksum that matches',
    (z) => ({
      method: 'PUT',
      path: `/${z.name}/y.html`,
      key: z.password,
      body: CONTENT,
      headers: { Checksum: CHECKSUM.toLowerCase() },
    }),
    201,
  ],
  [
    'an upload to a directory path',
    (z) => ({ method: 'PUT', path: `/${z.name}/dir/`, key: z.password, body: 'x' }),
    400,
  ],
];

REFUSALS.forEach(([why, request, status], i) => {
  test(`storage request with ${why}: ${status}`, async (t) => {
    const zone = await createStorageZone(t, sim, `files-auth-${i}`);
    const res = await storageCall(sim, request(zone));
    t.is(res.status, status, res.text);
    if (status >= 400) t.like(res.json(), { HttpCode: status });
  });
});

const REGIONS: Array<[string, string, string, number]> = [
  ['its own region host', 'NY', 'ny.storage.bunnycdn.com', 200],
  ["another region's host", 'NY', 'storage.bunnycdn.com', 401],
  ['the DE host for a DE zone', 'DE', 'storage.bunnycdn.com', 200],
  ['a region host for a DE zone', 'DE', 'la.storage.bunnycdn.com', 401],
  ['the address itself (no region to check)', 'NY', '127.0.0.1', 200],
];

REGIONS.forEach(([why, region, host, status], i) => {
  test(`a ${region} zone reached through ${why}: ${status}`, async (t) => {
    const zone = await createStorageZone(t, sim, `files-region-${i}`, region);
    const res = await storageCall(sim, {
      method: 'GET',
      path: `/${zone.name}/`,
      key: zone.password,
      host,
    });
    t.is(res.status, status, res.text);
  });
});

test('the zone record counts its files and bytes; deleting the zone deletes its files', async (t) => {
  const zone = await createStorageZone(t, sim, 'files-usage');
  for (const path of ['one.txt', 'two/three.txt']) {
    await storageCall(sim, {
      method: 'PUT',
      path: `/${zone.name}/${path}`,
      key: zone.password,
      body: 'abcd',
    });
  }
  const read = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/storagezone/{id}',
    params: { id: zone.id },
  });
  t.like(read.body, { FilesStored: 2, StorageUsed: 8, StorageHostname: 'storage.bunnycdn.com' });
  await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/storagezone/{id}',
    params: { id: zone.id },
  });
  const left = [...sim.state.collections.of('storageFiles').values()].filter(
    (f) => f.storageZoneId === zone.id,
  );
  t.deepEqual(left, []);
});
