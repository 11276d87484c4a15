/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- response bodies are read loosely here; call() has already validated each against the official schema */
import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { validateRequest } from '../../support/openapi.js';
import { call, createPullZone, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

type Json = Record<string, any>;

function container(name: string, extra: Json = {}): Json {
  return {
    name,
    imageName: 'nginx',
    imageNamespace: 'library',
    imageTag: '1.25',
    imageRegistryId: 'reg-1',
    ...extra,
  };
}

function appBody(name: string, extra: Json = {}): Json {
  return {
    name,
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 3 },
    regionSettings: { allowedRegionIds: ['DE', 'UK'], requiredRegionIds: ['DE'] },
    containerTemplates: [
      container('web', {
        endpoints: [
          {
            displayName: 'http',
            cdn: { isSslEnabled: true, portMappings: [{ containerPort: 80 }] },
          },
        ],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      }),
    ],
    volumes: [{ name: 'data', size: 5 }],
    ...extra,
  };
}

async function createApp(t: ExecutionContext, body: Json): Promise<string> {
  t.deepEqual(validateRequest('mc', 'POST', '/mc/apps', body), [], 'test body is a valid request');
  const res = await call(t, sim, { area: 'mc', method: 'POST', template: '/mc/apps', body });
  t.is(res.status, 201, JSON.stringify(res.body));
  return (res.body as { id: string }).id;
}

async function getApp(t: ExecutionContext, appId: string): Promise<Json> {
  const res = await call(t, sim, {
    area: 'mc',
    method: 'GET',
    template: '/mc/apps/{appId}',
    params: { appId },
  });
  t.is(res.status, 200);
  return res.body as Json;
}

async function listVolumes(t: ExecutionContext, appId: string): Promise<Json[]> {
  const res = await call(t, sim, {
    area: 'mc',
    method: 'GET',
    template: '/mc/apps/{appId}/volumes',
    params: { appId },
  });
  t.is(res.status, 200);
  return (res.body as Json).items as Json[];
}

async function patch(t: ExecutionContext, appId: string, body: Json): Promise<Json> {
  t.deepEqual(
    validateRequest('mc', 'PATCH', '/mc/apps/{appId}', body),
    [],
    'patch body is a valid request',
  );
  const res = await call(t, sim, {
    area: 'mc',
    method: 'PATCH',
    template: '/mc/apps/{appId}',
    params: { appId },
    body,
  });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.deepEqual(res.body, { id: appId });
  return getApp(t, appId);
}

test('create returns {id}; the read model has ids, publicHost, IP lists and a pull policy', async (t) => {
  const appId = await createApp(t, appBody('create-read'));
  const app = await getApp(t, appId);
  t.is(app.name, 'create-read');
  const c = app.containerTemplates[0];
  t.truthy(c.id);
  t.truthy(c.packageId);
  t.is(c.imagePullPolicy, 'ifNotPresent');
  const e = c.endpoints[0];
  t.truthy(e.id);
  t.regex(e.publicHost, /\.b-cdn\.net$/);
  t.is(typeof e.pullZoneId, 'string');
  t.true(
    sim.state.pullZones.has(Number(e.pullZoneId)),
    'a pull zone is made for a CDN endpoint that names none',
  );
  t.deepEqual(
    e.internalIpAddresses.map((a: Json) => a.region),
    ['DE', 'UK'],
  );
  t.deepEqual(e.publicIpAddresses, []);
  t.false('stickySessions' in e, 'none sent, none read back (apps-echo.test.ts)');
  t.deepEqual(e.portMappings[0], { containerPort: 80, protocols: ['tcp'] });
  t.deepEqual(app.volumes, [{ name: 'data', size: 5 }], 'the documented read model has no id');
  t.truthy((await listVolumes(t, appId))[0]?.id, 'GET .../volumes lists the ids');
  const got = await call(t, sim, {
    area: 'mc',
    method: 'GET',
    template: '/mc/apps/{appId}/containers/{containerId}',
    params: { appId, containerId: c.id },
  });
  t.deepEqual(got.body, c);
});

test('image pull policy always/ifNotPresent is kept; others are rejected', async (t) => {
  const appId = await createApp(
    t,
    appBody('pull-policy', {
      containerTemplates: [container('c', { imagePullPolicy: 'always' })],
      volumes: [],
    }),
  );
  t.is((await getApp(t, appId)).containerTemplates[0].imagePullPolicy, 'always');
  const bad = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/apps',
    body: appBody('pp-bad', {
      containerTemplates: [container('c', { imagePullPolicy: 'never' })],
      volumes: [],
    }),
  });
  t.is(bad.status, 400);
});

const INVALID: Array<[string, Json, string]> = [
  [
    'missing name',
    (() => {
      const b = appBody('x');
      delete b.name;
      return b;
    })(),
    'name',
  ],
  [
    'autoScaling min > max',
    appBody('scale', { autoScaling: { min: 5, max: 2 } }),
    'autoScaling.min',
  ],
  [
    'volumeMount naming an unknown volume',
    appBody('mount', { volumes: [] }),
    'containerTemplates[0].volumeMounts[0].name',
  ],
  [
    'container without imageName',
    appBody('img', {
      containerTemplates: [{ name: 'c', imageNamespace: 'n', imageTag: 't', imageRegistryId: 'r' }],
      volumes: [],
    }),
    'containerTemplates[0].imageName',
  ],
  [
    'required region not allowed',
    appBody('region', { regionSettings: { allowedRegionIds: ['UK'], requiredRegionIds: ['DE'] } }),
    'regionSettings.requiredRegionIds',
  ],
  [
    'endpoint on a pull zone that does not exist',
    appBody('pz', {
      containerTemplates: [
        container('c', { endpoints: [{ displayName: 'e', cdn: { pullZoneId: 424242 } }] }),
      ],
      volumes: [],
    }),
    'containerTemplates[0].endpoints[0].cdn.pullZoneId',
  ],
  [
    'volume size out of range',
    appBody('vol', { volumes: [{ name: 'data', size: 500 }] }),
    'volumes[0].size',
  ],
];

for (const [reason, body, field] of INVALID) {
  test(`create rejects ${reason}: 400 with errors[] naming ${field}`, async (t) => {
    const res = await call(t, sim, { area: 'mc', method: 'POST', template: '/mc/apps', body });
    t.is(res.status, 400);
    const errors = (res.body as { errors: Array<{ field: string }> }).errors;
    t.true(
      errors.some((e) => e.field === field),
      JSON.stringify(errors),
    );
  });
}

test('runtimeType is required as the document says (the contract does not say otherwise)', async (t) => {
  const appId = await createApp(t, appBody('runtime'));
  t.is((await getApp(t, appId)).runtimeType, 'shared');
  const { runtimeType: _r, ...without } = appBody('runtime-missing');
  const res = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/apps',
    body: without,
  });
  t.is(res.status, 400);
  t.true((res.body as Json).errors.some((e: Json) => e.field === 'runtimeType'));
});

test('PATCH: a changes-only container item is rejected (the documented item requires name and image)', async (t) => {
  const appId = await createApp(t, appBody('patch-partial'));
  const before = (await getApp(t, appId)).containerTemplates[0];
  const res = await call(t, sim, {
    area: 'mc',
    method: 'PATCH',
    template: '/mc/apps/{appId}',
    params: { appId },
    body: { containerTemplates: [{ id: before.id, name: 'web', imageTag: '1.27' }] },
  });
  t.is(res.status, 400);
  const fields = (res.body as Json).errors.map((e: Json) => e.field);
  t.true(fields.includes('containerTemplates[0].imageName'), JSON.stringify(fields));
});

test('PUT: volumes and endpoints carry no id (documented request; one sent is ignored); same-named items keep theirs', async (t) => {
  const appId = await createApp(t, appBody('put-ids'));
  const before = await getApp(t, appId);
  const [volume] = await listVolumes(t, appId);
  const c = before.containerTemplates[0];
  const withIds = appBody('put-ids', {
    containerTemplates: [
      container('web', {
        id: c.id,
        endpoints: [{ id: c.endpoints[0].id, displayName: 'http' }],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      }),
    ],
    volumes: [{ id: volume?.id, name: 'data', size: 6 }],
  });
  const bound = await call(t, sim, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/apps/{appId}',
    params: { appId },
    body: withIds,
  });
  t.is(bound.status, 200, 'ids the documented request lacks are ignored, as the live API does');
  const notes = sim.calls.snapshot().rejectedByDocument.log.at(-1)?.problems.join('; ') ?? '';
  t.regex(notes, /volumes\[0\]\.id/, 'and recorded as not exactly documented');
  t.regex(notes, /containerTemplates\[0\]\.endpoints\[0\]\.id/);
  const body = appBody('put-ids', {
    containerTemplates: [
      container('web', {
        id: c.id,
        endpoints: [{ displayName: 'http' }],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      }),
    ],
    volumes: [{ name: 'data', size: 6 }],
  });
  t.deepEqual(validateRequest('mc', 'PUT', '/mc/apps/{appId}', body), []);
  const res = await call(t, sim, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/apps/{appId}',
    params: { appId },
    body,
  });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.deepEqual(
    (await listVolumes(t, appId)).map((v) => [v.id, v.size]),
    [[volume?.id, 6]],
    'the volume named again is the same volume',
  );
  const after = (await getApp(t, appId)).containerTemplates[0];
  t.is(after.endpoints[0].id, c.endpoints[0].id, 'the endpoint named again keeps its id');
  t.is(after.endpoints[0].pullZoneId, c.endpoints[0].pullZoneId, 'and its pull zone');
});

test('PATCH: absent fields are unchanged', async (t) => {
  const appId = await createApp(t, appBody('patch-absent'));
  const before = await getApp(t, appId);
  const after = await patch(t, appId, { name: 'patch-absent-renamed' });
  t.is(after.name, 'patch-absent-renamed');
  t.deepEqual(after.containerTemplates, before.containerTemplates);
  t.deepEqual(after.volumes, before.volumes);
  t.deepEqual(after.autoScaling, before.autoScaling);
});

test('PATCH: a container with a matching id is updated in place, keeping its id and other fields', async (t) => {
  const appId = await createApp(t, appBody('patch-update'));
  const before = (await getApp(t, appId)).containerTemplates[0];
  const after = await patch(t, appId, {
    containerTemplates: [container('web', { id: before.id, imageTag: '1.27' })],
  });
  t.is(after.containerTemplates.length, 1);
  const c = after.containerTemplates[0];
  t.is(c.id, before.id);
  t.is(c.imageTag, '1.27');
  t.is(c.imageName, 'nginx');
  t.deepEqual(c.endpoints, before.endpoints, 'endpoints absent from the item stay as they were');
  t.deepEqual(c.volumeMounts, before.volumeMounts);
});

test('PATCH: an item without id is added with a new id; an item left out is deleted', async (t) => {
  const appId = await createApp(
    t,
    appBody('patch-add-delete', {
      containerTemplates: [container('a'), container('b')],
      volumes: [],
    }),
  );
  const [a] = (await getApp(t, appId)).containerTemplates;
  const after = await patch(t, appId, {
    containerTemplates: [container('a', { id: a.id }), container('c')],
  });
  t.deepEqual(
    after.containerTemplates.map((c: Json) => c.name),
    ['a', 'c'],
  );
  t.is(after.containerTemplates[0].id, a.id);
  t.truthy(after.containerTemplates[1].id);
  t.not(after.containerTemplates[1].id, a.id);
});

test('PATCH: volumes and endpoints follow the same id rules', async (t) => {
  const appId = await createApp(t, appBody('patch-nested'));
  const before = await getApp(t, appId);
  const c = before.containerTemplates[0];
  const oldEndpoint = c.endpoints[0];
  const [oldVolume] = await listVolumes(t, appId);
  const after = await patch(t, appId, {
    volumes: [
      { id: oldVolume?.id, name: 'data', size: 10 },
      { name: 'cache', size: 1 },
    ],
    containerTemplates: [
      {
        ...container('web', { id: c.id }),
        endpoints: [
          { id: oldEndpoint.id, displayName: 'renamed' },
          { displayName: 'admin', cdn: { portMappings: [{ containerPort: 8080 }] } },
        ],
      },
    ],
  });
  t.deepEqual(
    after.volumes.map((v: Json) => [v.name, v.size]),
    [
      ['data', 10],
      ['cache', 1],
    ],
  );
  t.is((await listVolumes(t, appId))[0]?.id, oldVolume?.id);
  const eps = after.containerTemplates[0].endpoints;
  t.is(eps[0].id, oldEndpoint.id);
  t.is(eps[0].displayName, 'renamed');
  t.is(eps[0].pullZoneId, oldEndpoint.pullZoneId, 'the endpoint keeps its pull zone');
  t.truthy(eps[1].id);
  const dropped = await patch(t, appId, {
    containerTemplates: [
      container('web', { id: c.id, endpoints: [{ id: eps[1].id, displayName: 'admin' }] }),
    ],
  });
  t.deepEqual(
    dropped.containerTemplates[0].endpoints.map((e: Json) => e.id),
    [eps[1].id],
  );
  t.false(
    sim.state.pullZones.has(Number(oldEndpoint.pullZoneId)),
    'the pull zone made for a deleted endpoint goes too',
  );
});

test('PATCH: an id that matches nothing is a validation error', async (t) => {
  const appId = await createApp(t, appBody('patch-bad-id'));
  const res = await call(t, sim, {
    area: 'mc',
    method: 'PATCH',
    template: '/mc/apps/{appId}',
    params: { appId },
    body: { containerTemplates: [container('web', { id: 'nope', imageTag: 'x' })] },
  });
  t.is(res.status, 400);
  t.like(res.body, { id: appId });
  t.true((res.body as Json).errors.some((e: Json) => e.field === 'containerTemplates[0].id'));
});

test('PATCH: merged result is validated (min > max after merge)', async (t) => {
  const appId = await createApp(t, appBody('patch-merge-check'));
  const res = await call(t, sim, {
    area: 'mc',
    method: 'PATCH',
    template: '/mc/apps/{appId}',
    params: { appId },
    body: { autoScaling: { min: 9, max: 4 } },
  });
  t.is(res.status, 400);
});

test('PUT replaces all configuration: omitted volumes and endpoints are gone, ids given are kept', async (t) => {
  const appId = await createApp(t, appBody('put-replace'));
  const before = await getApp(t, appId);
  const body = {
    name: 'put-replaced',
    runtimeType: 'shared',
    autoScaling: { min: 2, max: 2 },
    regionSettings: { allowedRegionIds: ['US'] },
    containerTemplates: [
      container('web', { id: before.containerTemplates[0].id, imageTag: '2.0' }),
    ],
  };
  t.deepEqual(validateRequest('mc', 'PUT', '/mc/apps/{appId}', body), []);
  const res = await call(t, sim, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/apps/{appId}',
    params: { appId },
    body,
  });
  t.is(res.status, 200);
  t.deepEqual(res.body, { id: appId });
  const after = await getApp(t, appId);
  t.is(after.name, 'put-replaced');
  t.deepEqual(after.volumes, []);
  t.is(after.containerTemplates[0].id, before.containerTemplates[0].id);
  t.deepEqual(after.containerTemplates[0].endpoints, []);
  t.deepEqual(after.regionSettings.requiredRegionIds, []);
});

test('list pages with limit and cursor; get/put/patch/delete of an unknown app are 404', async (t) => {
  for (const n of [1, 2, 3]) await createApp(t, appBody(`list-${n}`));
  const first = await call(t, sim, {
    area: 'mc',
    method: 'GET',
    template: '/mc/apps',
    query: { limit: 2 },
  });
  const body = first.body as Json;
  t.is(body.items.length, 2);
  t.true(body.meta.totalItems >= 3);
  t.truthy(body.cursor);
  const second = await call(t, sim, {
    area: 'mc',
    method: 'GET',
    template: '/mc/apps',
    query: { limit: 2, nextCursor: body.cursor },
  });
  t.notDeepEqual((second.body as Json).items[0], body.items[0]);
  t.is(
    (await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/apps', query: { limit: 0 } }))
      .status,
    400,
  );
  const params = { appId: 'missing' };
  t.is(
    (await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/apps/{appId}', params }))
      .status,
    404,
  );
  t.is(
    (
      await call(t, sim, {
        area: 'mc',
        method: 'PUT',
        template: '/mc/apps/{appId}',
        params,
        body: appBody('x'),
      })
    ).status,
    404,
  );
  t.is(
    (
      await call(t, sim, {
        area: 'mc',
        method: 'PATCH',
        template: '/mc/apps/{appId}',
        params,
        body: {},
      })
    ).status,
    404,
  );
  t.is(
    (await call(t, sim, { area: 'mc', method: 'DELETE', template: '/mc/apps/{appId}', params }))
      .status,
    404,
  );
  t.is(
    (
      await call(t, sim, {
        area: 'mc',
        method: 'GET',
        template: '/mc/apps/{appId}/containers/{containerId}',
        params: { appId: 'missing', containerId: 'c' },
      })
    ).status,
    404,
  );
});

test('delete removes the app and the pull zones made for its endpoints, not user pull zones', async (t) => {
  const userZone = await createPullZone(t, sim, 'pz-user-owned');
  const appId = await createApp(
    t,
    appBody('delete-me', {
      containerTemplates: [
        container('c', {
          endpoints: [
            {
              displayName: 'mine',
              cdn: { pullZoneId: userZone, portMappings: [{ containerPort: 80 }] },
            },
            { displayName: 'auto' },
          ],
        }),
      ],
      volumes: [],
    }),
  );
  const eps = (await getApp(t, appId)).containerTemplates[0].endpoints;
  t.is(eps[0].pullZoneId, String(userZone));
  t.is(eps[0].publicHost, 'pz-user-owned.b-cdn.net');
  t.is(
    (
      await call(t, sim, {
        area: 'mc',
        method: 'DELETE',
        template: '/mc/apps/{appId}',
        params: { appId },
      })
    ).status,
    200,
  );
  t.false(sim.state.apps.has(appId));
  t.true(sim.state.pullZones.has(userZone));
  t.false(sim.state.pullZones.has(Number(eps[1].pullZoneId)));
});
