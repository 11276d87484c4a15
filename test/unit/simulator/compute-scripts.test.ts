/* eslint-disable @typescript-eslint/no-unsafe-argument -- answer bodies are read loosely here; computeCall() has already checked each against the compute document */
/**
 * cdn-sim's edge scripts (compute document): the script lifecycle, the pull zone a standalone
 * script gets, middleware scripts on pull zones, what a delete does to linked zones, the list's
 * filters, key rotation and statistics. Every answer is checked against the compute document
 * (compute-support.ts) and no request of these tests is one the document rejects.
 */
import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, createPullZone, startTestSim } from '../../support/sim-client.js';
import { addScript, computeCall } from './compute-support.js';

const CODE = 'export default { fetch: () => new Response("hi") };';

async function sim(t: ExecutionContext): Promise<SimulatorHandle> {
  const s = await startTestSim();
  t.teardown(() => s.close());
  return s;
}

function noRejections(t: ExecutionContext, s: SimulatorHandle): void {
  t.is(s.calls.snapshot().rejectedByDocument.count, 0, 'no request the document rejects');
}

test('a standalone script created with a linked pull zone is fronted by an ordinary pull zone named after it', async (t) => {
  const s = await sim(t);
  const script = await addScript(t, s, {
    Name: 'Hello World!',
    ScriptType: 1,
    Code: CODE,
    CreateLinkedPullZone: true,
  });
  t.like(script, { Name: 'Hello World!', ScriptType: 1, CurrentReleaseId: 0, Deleted: false });
  t.regex(script.DeploymentKey, /^[0-9a-f]{64}$/);
  t.is(script.LinkedPullZones.length, 1);
  const [linked] = script.LinkedPullZones;
  t.like(linked, { PullZoneName: 'hello-world', DefaultHostname: 'hello-world.b-cdn.net' });
  t.is(script.SystemHostname, 'hello-world.b-cdn.net');
  t.is(script.DefaultHostname, 'hello-world.b-cdn.net');
  const zone = await call(t, s, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id: linked.Id },
  });
  t.like(zone.body, { Name: 'hello-world', OriginType: 4, EdgeScriptId: script.Id });
  const again = await addScript(t, s, {
    Name: 'hello world',
    ScriptType: 1,
    CreateLinkedPullZone: true,
  });
  t.is(again.LinkedPullZones[0].PullZoneName, 'hello-world-2', 'names are global: a free one');
  noRejections(t, s);
});

test('the linked pull zone: a name asked for is used, a taken or invalid one refuses the create', async (t) => {
  const s = await sim(t);
  await createPullZone(t, s, 'taken');
  const cases: Array<[string, unknown, number, string | undefined]> = [
    ['a free name is used', 'my-edge', 201, undefined],
    ['a taken name (any case) is 400 on LinkedPullZoneName', 'TAKEN', 400, 'pullzone.name_taken'],
    ['an invalid name is 400 on LinkedPullZoneName', 'no spaces', 400, 'pullzone.invalid_name'],
  ];
  for (const [why, name, status, errorKey] of cases) {
    const before = s.state.collections.of('edgeScripts').size;
    const res = await computeCall(t, s, {
      method: 'POST',
      template: '/compute/script',
      body: { Name: 'x', ScriptType: 1, CreateLinkedPullZone: true, LinkedPullZoneName: name },
    });
    t.is(res.status, status, why);
    if (errorKey) {
      t.like(res.body, { ErrorKey: errorKey, Field: 'LinkedPullZoneName' }, why);
      t.is(s.state.collections.of('edgeScripts').size, before, `${why}: no script is left`);
    } else {
      t.is(res.body.LinkedPullZones[0].PullZoneName, name, why);
    }
  }
});

test('no pull zone without CreateLinkedPullZone, nor for a middleware script; a middleware attaches through a pull zone', async (t) => {
  const s = await sim(t);
  const plain = await addScript(t, s, { Name: 'plain', ScriptType: 1 });
  t.deepEqual(plain.LinkedPullZones, []);
  t.is(plain.DefaultHostname, null);
  const mw = await addScript(t, s, { Name: 'mw', ScriptType: 2, CreateLinkedPullZone: true });
  t.deepEqual(mw.LinkedPullZones, [], 'a middleware gets no pull zone of its own');
  t.is(s.state.pullZones.size, 0);
  const zoneId = await createPullZone(t, s, 'site', { MiddlewareScriptId: mw.Id });
  const read = await computeCall(t, s, {
    method: 'GET',
    template: '/compute/script/{id}',
    params: { id: mw.Id },
  });
  t.deepEqual(read.body.LinkedPullZones, [
    { Id: zoneId, PullZoneName: 'site', DefaultHostname: 'site.b-cdn.net' },
  ]);
  t.is(read.body.SystemHostname, null, 'hostnames are those of a fronting zone only');
  noRejections(t, s);
});

test('deleting a script: linked zones stay (fronting one on the landing page, middleware dropped) or go with deleteLinkedPullZones', async (t) => {
  const s = await sim(t);
  const keep = await addScript(t, s, { Name: 'keep', ScriptType: 1, CreateLinkedPullZone: true });
  const mw = await addScript(t, s, { Name: 'mw', ScriptType: 2 });
  const site = await createPullZone(t, s, 'site', { MiddlewareScriptId: mw.Id });
  const front = keep.LinkedPullZones[0].Id as number;
  for (const id of [keep.Id, mw.Id]) {
    const res = await computeCall(t, s, {
      method: 'DELETE',
      template: '/compute/script/{id}',
      params: { id },
    });
    t.is(res.status, 204);
  }
  t.like(s.state.pullZones.get(front)?.record, {
    EdgeScriptId: 0,
    OriginType: 0,
    OriginUrl: 'https://bunny.net',
  });
  t.is(s.state.pullZones.get(site)?.record.MiddlewareScriptId, null);
  const gone = await addScript(t, s, { Name: 'gone', ScriptType: 1, CreateLinkedPullZone: true });
  const mw2 = await addScript(t, s, { Name: 'mw2', ScriptType: 2 });
  const site2 = await createPullZone(t, s, 'site2', { MiddlewareScriptId: mw2.Id });
  for (const id of [gone.Id, mw2.Id]) {
    await computeCall(t, s, {
      method: 'DELETE',
      template: '/compute/script/{id}',
      params: { id },
      query: { deleteLinkedPullZones: true },
    });
  }
  t.false(s.state.pullZones.has(gone.LinkedPullZones[0].Id as number));
  t.false(s.state.pullZones.has(site2), 'every linked zone goes, a middleware one too');
  const missing = await computeCall(t, s, {
    method: 'GET',
    template: '/compute/script/{id}',
    params: { id: gone.Id },
  });
  t.is(missing.status, 404);
  noRejections(t, s);
});

test('the list: paged, filtered by type (repeated parameter), name and integration; linked zones only when asked', async (t) => {
  const s = await sim(t);
  await addScript(t, s, { Name: 'dns-one', ScriptType: 0 });
  await addScript(t, s, { Name: 'Site Front', ScriptType: 1, CreateLinkedPullZone: true });
  await addScript(t, s, { Name: 'site-mw', ScriptType: 2 });
  const list = async (
    query: Record<string, string | number | boolean | number[]>,
  ): Promise<string[]> => {
    const res = await computeCall(t, s, { method: 'GET', template: '/compute/script', query });
    t.is(res.status, 200);
    return (res.body.Items as Array<{ Name: string }>).map((i) => i.Name);
  };
  t.deepEqual(await list({}), ['dns-one', 'Site Front', 'site-mw']);
  t.deepEqual(await list({ type: [1, 2] }), ['Site Front', 'site-mw'], 'type=1&type=2');
  t.deepEqual(await list({ search: 'SITE' }), ['Site Front', 'site-mw'], 'search ignores case');
  t.deepEqual(await list({ integrationId: 5 }), [], 'no script comes from an integration');
  const page = await computeCall(t, s, {
    method: 'GET',
    template: '/compute/script',
    query: { page: 2, perPage: 5 },
  });
  t.like(page.body, { CurrentPage: 2, TotalItems: 3, HasMoreItems: false, Items: [] });
  const plain = await computeCall(t, s, { method: 'GET', template: '/compute/script' });
  t.is(plain.body.Items[1].LinkedPullZones, null, 'left out unless asked');
  const withZones = await computeCall(t, s, {
    method: 'GET',
    template: '/compute/script',
    query: { includeLinkedPullzones: true },
  });
  t.is(withZones.body.Items[1].LinkedPullZones.length, 1);
  noRejections(t, s);
});

test('update changes only what is given; the key rotates; an unknown script is 404 everywhere', async (t) => {
  const s = await sim(t);
  const script = await addScript(t, s, { Name: 'one', ScriptType: 1 });
  const renamed = await computeCall(t, s, {
    method: 'POST',
    template: '/compute/script/{id}',
    params: { id: script.Id },
    body: { Name: 'two' },
  });
  t.like(renamed.body, { Name: 'two', ScriptType: 1 }, 'a type left out is kept');
  const rotated = await computeCall(t, s, {
    method: 'POST',
    template: '/compute/script/{id}/deploymentKey/rotate',
    params: { id: script.Id },
  });
  t.is(rotated.status, 204);
  const read = await computeCall(t, s, {
    method: 'GET',
    template: '/compute/script/{id}',
    params: { id: script.Id },
  });
  t.not(read.body.DeploymentKey, script.DeploymentKey);
  const unknown: Array<[string, string, unknown?]> = [
    ['GET', '/compute/script/{id}'],
    ['POST', '/compute/script/{id}', { Name: 'x' }],
    ['DELETE', '/compute/script/{id}'],
    ['POST', '/compute/script/{id}/deploymentKey/rotate'],
    ['GET', '/compute/script/{id}/statistics'],
    ['GET', '/compute/script/{id}/code'],
    ['POST', '/compute/script/{id}/code', { Code: 'x' }],
    ['POST', '/compute/script/{id}/publish', {}],
    ['GET', '/compute/script/{id}/releases'],
    ['GET', '/compute/script/{id}/releases/active'],
    ['GET', '/compute/script/{id}/secrets'],
    ['PUT', '/compute/script/{id}/variables', { Name: 'A' }],
  ];
  for (const [method, template, body] of unknown) {
    const res = await computeCall(t, s, { method, template, params: { id: 999999 }, body });
    t.is(res.status, 404, `${method} ${template}`);
  }
  noRejections(t, s);
});

test('statistics: zeros, one chart entry per day of the range (default 30 days) or per hour', async (t) => {
  const s = await sim(t);
  const script = await addScript(t, s, { Name: 'stats', ScriptType: 1 });
  const daily = await computeCall(t, s, {
    method: 'GET',
    template: '/compute/script/{id}/statistics',
    params: { id: script.Id },
  });
  t.like(daily.body, { TotalRequestsServed: 0, TotalCpuUsed: 0, TotalMonthlyCost: 0 });
  t.is(Object.keys(daily.body.RequestsServedChart).length, 31);
  const hourly = await computeCall(t, s, {
    method: 'GET',
    template: '/compute/script/{id}/statistics',
    params: { id: script.Id },
    query: {
      dateFrom: '2026-03-01T00:00:00Z',
      dateTo: '2026-03-01T05:00:00Z',
      hourly: true,
    },
  });
  t.deepEqual(Object.keys(hourly.body.TotalCpuTimeChart), [
    '2026-03-01T00:00:00.000Z',
    '2026-03-01T01:00:00.000Z',
    '2026-03-01T02:00:00.000Z',
    '2026-03-01T03:00:00.000Z',
    '2026-03-01T04:00:00.000Z',
    '2026-03-01T05:00:00.000Z',
  ]);
  noRejections(t, s);
});
