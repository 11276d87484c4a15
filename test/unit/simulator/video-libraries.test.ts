import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { MAX_IMAGE_UPLOAD_BYTES } from '../../../src/simulator/routes/video-libraries.js';
import { call, startTestSim, TEST_KEY } from '../../support/sim-client.js';

// Bodies are read loosely by the tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
/** A library as read: the members the tests pass on typed. */
type Lib = Json & {
  Id: number;
  PullZoneId: number;
  StorageZoneId: number;
  ApiKey: string;
  ReadOnlyApiKey: string;
  WatermarkVersion: number;
};

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

const ID = '/videolibrary/{id}';

async function create(t: ExecutionContext, body: Json): Promise<Lib> {
  const res = await call(t, sim, { area: 'core', method: 'POST', template: '/videolibrary', body });
  t.is(res.status, 201, JSON.stringify(res.body));
  return res.body as Lib;
}

async function get(t: ExecutionContext, id: number): Promise<Lib> {
  const res = await call(t, sim, { area: 'core', method: 'GET', template: ID, params: { id } });
  t.is(res.status, 200);
  return res.body as Lib;
}

async function post(
  t: ExecutionContext,
  id: number,
  suffix: string,
  body?: unknown,
): Promise<number> {
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: `${ID}${suffix}`,
    params: { id },
    body,
  });
  return res.status;
}

test('create: the library gets its pull zone and storage zone (listed in both areas) and two keys', async (t) => {
  const lib = await create(t, { Name: 'videos', ReplicationRegions: ['NY'] });
  t.true(lib.Id > 0);
  t.regex(lib.ApiKey, /^[0-9a-f-]{30,}$/);
  t.regex(lib.ReadOnlyApiKey, /^[0-9a-f-]{30,}$/);
  t.not(lib.ApiKey, lib.ReadOnlyApiKey);
  t.deepEqual(lib.ReplicationRegions, ['NY']);
  const zones = await call(t, sim, { area: 'core', method: 'GET', template: '/pullzone' });
  const zone = (zones.body as Json[]).find((z) => z.Id === lib.PullZoneId);
  t.truthy(zone, 'the pull zone is listed');
  t.is(zone!.VideoLibraryId, lib.Id);
  t.is(zone!.StorageZoneId, lib.StorageZoneId);
  t.is(zone!.OriginType, 2, 'it serves from the storage zone');
  const storage = await call(t, sim, { area: 'core', method: 'GET', template: '/storagezone' });
  const sz = (storage.body as Json[]).find((z) => z.Id === lib.StorageZoneId);
  t.truthy(sz, 'the storage zone is listed');
  t.deepEqual(sz!.ReplicationRegions, ['NY']);
});

test('get: 404 with ApiErrorData for an unknown id; names are not unique', async (t) => {
  const a = await create(t, { Name: 'same-name' });
  const b = await create(t, { Name: 'same-name' });
  t.not(a.Id, b.Id, 'a second library of one name is created');
  t.not(a.PullZoneId, b.PullZoneId);
  const missing = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: ID,
    params: { id: 99999 },
  });
  t.is(missing.status, 404);
  t.like(missing.body, { ErrorKey: 'videolibrary.not_found' });
});

test('list: page and perPage in the pagination envelope, search by name', async (t) => {
  for (const n of [1, 2, 3, 4, 5, 6]) await create(t, { Name: `paged-${n}` });
  const page = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/videolibrary',
    query: { page: 2, perPage: 5, search: 'paged-' },
  });
  const body = page.body as Json;
  t.is(body.TotalItems, 6);
  t.is(body.CurrentPage, 2);
  t.is(body.Items.length, 1);
  t.false(body.HasMoreItems);
  t.is(body.Items[0].Name, 'paged-6');
  const bad = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/videolibrary',
    query: { perPage: 4 },
  });
  t.is(bad.status, 400, 'perPage below the documented 5');
});

test('update: only the members sent change; token authentication acts on the pull zone', async (t) => {
  const lib = await create(t, { Name: 'partial' });
  const status = await post(t, lib.Id, '', {
    WebhookUrl: 'https://hooks.example/video',
    EnableTokenAuthentication: true,
    GoogleWidevineDrm: { SdOnlyForL3: true },
  });
  t.is(status, 200);
  const after = await get(t, lib.Id);
  t.is(after.WebhookUrl, 'https://hooks.example/video');
  t.true(after.GoogleWidevineDrm.SdOnlyForL3);
  t.false(after.GoogleWidevineDrm.Enabled, 'a nested member not sent is kept');
  t.is(after.Name, 'partial');
  t.is(after.EnabledResolutions, lib.EnabledResolutions);
  t.is(after.Bitrate720p, lib.Bitrate720p);
  const zone = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id: lib.PullZoneId },
  });
  t.true((zone.body as Json).ZoneSecurityEnabled);
});

const REJECTED: Array<[string, Json, string]> = [
  ['a string for a boolean', { EnableDRM: 'yes' }, 'EnableDRM'],
  ['an encoding tier outside the enum', { EncodingTier: 5 }, 'EncodingTier'],
  [
    'a resolution the document does not list',
    { EnabledResolutions: '720p,999p' },
    'EnabledResolutions',
  ],
  ['a premium codec on the free tier', { OutputCodecs: 'x264,vp9' }, 'OutputCodecs'],
];

for (const [reason, body, field] of REJECTED) {
  test(`update rejects ${reason} (400 naming ${field})`, async (t) => {
    const lib = await create(t, { Name: 'rejects' });
    const res = await call(t, sim, {
      area: 'core',
      method: 'POST',
      template: ID,
      params: { id: lib.Id },
      body,
    });
    t.is(res.status, 400);
    t.is((res.body as Json).Field, field);
    t.is((await get(t, lib.Id)).DateModified, lib.DateModified, 'nothing changed');
  });
}

test('create rejects a body without Name and an unknown replication region', async (t) => {
  for (const [body, field] of [
    [{}, 'Name'],
    [{ Name: 'x', ReplicationRegions: ['MARS'] }, 'ReplicationRegions'],
  ] as const) {
    const res = await call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/videolibrary',
      body,
    });
    t.is(res.status, 400);
    t.is((res.body as Json).Field, field);
  }
});

test('referrers: add and remove on both lists, repeats change nothing', async (t) => {
  const lib = await create(t, { Name: 'referrers' });
  t.is(await post(t, lib.Id, '/addAllowedReferrer', { Hostname: 'a.example' }), 200);
  t.is(await post(t, lib.Id, '/addAllowedReferrer', { Hostname: 'a.example' }), 200);
  t.is(await post(t, lib.Id, '/addAllowedReferrer', { Hostname: 'b.example' }), 200);
  t.is(await post(t, lib.Id, '/addBlockedReferrer', { Hostname: 'bad.example' }), 200);
  t.is(await post(t, lib.Id, '/removeAllowedReferrer', { Hostname: 'a.example' }), 200);
  t.is(await post(t, lib.Id, '/removeBlockedReferrer', { Hostname: 'never.example' }), 200);
  const after = await get(t, lib.Id);
  t.deepEqual(after.AllowedReferrers, ['b.example']);
  t.deepEqual(after.BlockedReferrers, ['bad.example']);
  t.is(await post(t, lib.Id, '/addBlockedReferrer', { Hostname: '' }), 400);
  t.is(await post(t, 99999, '/removeBlockedReferrer', { Hostname: 'x' }), 404);
});

test('watermark: an upload sets HasWatermark and a new version, delete clears it', async (t) => {
  const lib = await create(t, { Name: 'watermark' });
  const url = `${sim.url}/videolibrary/${lib.Id}/watermark`;
  const headers = { AccessKey: TEST_KEY, 'content-type': 'image/png' };
  const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0xfe]);
  const put = await fetch(url, { method: 'PUT', headers, body: image });
  t.is(put.status, 204);
  const after = await get(t, lib.Id);
  t.true(after.HasWatermark);
  t.is(after.WatermarkVersion, lib.WatermarkVersion + 1);
  t.false('uploads' in after, 'the image is never answered back');
  const kept = sim.state.videoLibraries.get(lib.Id)?.uploads as Record<string, Json | undefined>;
  t.like(kept.watermark, { bytes: image.length, contentType: 'image/png' });
  t.deepEqual(Buffer.from(String(kept.watermark?.data), 'base64'), image, 'the bytes as sent');
  const del = await fetch(url, { method: 'DELETE', headers: { AccessKey: TEST_KEY } });
  t.is(del.status, 204);
  t.false((await get(t, lib.Id)).HasWatermark);
});

test('watermark: any media type is taken; an empty body is 400, one over 10 MiB 413', async (t) => {
  const lib = await create(t, { Name: 'watermark-limits' });
  const url = `${sim.url}/videolibrary/${lib.Id}/watermark`;
  const put = (body: Buffer, type: string): Promise<Response> =>
    fetch(url, { method: 'PUT', headers: { AccessKey: TEST_KEY, 'content-type': type }, body });
  t.is((await put(Buffer.from('GIF89a'), 'application/octet-stream')).status, 204);
  t.is((await put(Buffer.alloc(0), 'image/png')).status, 400);
  const huge = await put(Buffer.alloc(MAX_IMAGE_UPLOAD_BYTES + 1), 'image/png').catch(
    (e: unknown) => e,
  );
  // The answer may be cut by the refused upload: a 413 or a reset connection, never a 204.
  t.true(huge instanceof Response ? huge.status === 413 : huge instanceof Error);
  t.is((await put(Buffer.alloc(MAX_IMAGE_UPLOAD_BYTES), 'image/png')).status, 204, 'at the limit');
});

test('key resets: each changes its own key only', async (t) => {
  const lib = await create(t, { Name: 'keys' });
  t.is(await post(t, lib.Id, '/resetApiKey'), 204);
  const one = await get(t, lib.Id);
  t.not(one.ApiKey, lib.ApiKey);
  t.is(one.ReadOnlyApiKey, lib.ReadOnlyApiKey);
  t.is(one.ApiAccessKey, one.ApiKey, 'the deprecated member repeats the key');
  t.is(await post(t, lib.Id, '/resetReadOnlyApiKey'), 204);
  const two = await get(t, lib.Id);
  t.is(two.ApiKey, one.ApiKey);
  t.not(two.ReadOnlyApiKey, one.ReadOnlyApiKey);
});

test('delete: the library goes with its pull zone and storage zone', async (t) => {
  const lib = await create(t, { Name: 'doomed' });
  const res = await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: ID,
    params: { id: lib.Id },
  });
  t.is(res.status, 204);
  t.false(sim.state.videoLibraries.has(lib.Id));
  t.false(sim.state.pullZones.has(lib.PullZoneId), 'its pull zone is deleted');
  t.false(sim.state.storageZones.has(lib.StorageZoneId), 'its storage zone is deleted');
  const again = await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: ID,
    params: { id: lib.Id },
  });
  t.is(again.status, 404);
});

test('languages and statistics answer the documented models', async (t) => {
  const lib = await create(t, { Name: 'stats' });
  const langs = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/videolibrary/languages',
  });
  t.true((langs.body as Json[]).some((l) => l.ShortCode === 'en'));
  for (const template of [`${ID}/transcribing/statistics`, `${ID}/drm/statistics`]) {
    const res = await call(t, sim, {
      area: 'core',
      method: 'GET',
      template,
      params: { id: lib.Id },
    });
    t.is(res.status, 200);
  }
});

test('the library and its keys are saved with the state', async (t) => {
  const lib = await create(t, { Name: 'saved' });
  const copy = await startTestSim();
  try {
    copy.state.restore(sim.state.snapshot());
    const res = await call(t, copy, {
      area: 'core',
      method: 'GET',
      template: ID,
      params: { id: lib.Id },
    });
    t.like(res.body, { Name: 'saved', ApiKey: lib.ApiKey, PullZoneId: lib.PullZoneId });
  } finally {
    await copy.close();
  }
});

test('a member the update model lacks is ignored, as the live platform binds it', async (t) => {
  const lib = await create(t, { Name: 'binding' });
  t.is(await post(t, lib.Id, '', { VideoCount: 3 }), 200);
  t.is((await get(t, lib.Id)).VideoCount, 0);
});

test('a client held to the document: no request of a whole library life is rejected', async (t) => {
  const own = await startTestSim();
  try {
    const res = await call(t, own, {
      area: 'core',
      method: 'POST',
      template: '/videolibrary',
      body: { Name: 'exact', EncodingTier: 1, OutputCodecs: 'x264,vp9' },
    });
    const params = { id: (res.body as Json).Id as number };
    const steps: Array<[string, string, unknown]> = [
      ['POST', ID, { EnableDRM: true, GoogleWidevineDrm: { MinClientSecurityLevel: 1 } }],
      ['POST', `${ID}/addAllowedReferrer`, { Hostname: 'a.example' }],
      ['POST', `${ID}/removeAllowedReferrer`, { Hostname: 'a.example' }],
      ['POST', `${ID}/resetApiKey`, undefined],
      ['GET', ID, undefined],
      ['DELETE', ID, undefined],
    ];
    for (const [method, template, body] of steps)
      await call(t, own, { area: 'core', method, template, params, body });
    t.is(own.calls.snapshot().rejectedByDocument.count, 0);
  } finally {
    await own.close();
  }
});
