/* eslint-disable @typescript-eslint/no-explicit-any -- admin bodies are read loosely */
import test from 'ava';
import { parseCli } from '../../../src/simulator/cli-args.js';
import { fieldOf } from '../../../src/simulator/documents/gate.js';
import { admin, call, createPullZone, startTestSim, TEST_KEY } from '../../support/sim-client.js';

const app = {
  name: 'strict',
  runtimeType: 'shared',
  autoScaling: { min: 1, max: 1 },
  regionSettings: {},
  containerTemplates: [
    {
      name: 'c',
      imageName: 'nginx',
      imageNamespace: 'library',
      imageTag: '1',
      imageRegistryId: 'r',
    },
  ],
};

test('strict by default: a request the document rejects is 400 in the area shape and counted', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  const ok = await call(t, sim, { area: 'mc', method: 'POST', template: '/mc/apps', body: app });
  t.is(ok.status, 201);
  const { runtimeType: _r, ...bad } = app;
  const res = await call(t, sim, { area: 'mc', method: 'POST', template: '/mc/apps', body: bad });
  t.is(res.status, 400);
  t.deepEqual((res.body as any).errors, [{ field: 'runtimeType', message: 'is required' }]);
  const core = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id: 'abc' },
  });
  t.is(core.status, 400, 'path parameters are checked too (id is an int64)');
  t.like(core.body, { Field: 'id' });
  const calls = (await admin(sim, 'GET', '/_sim/calls')).body as any;
  t.is(calls.rejectedByDocument.count, 2);
  t.deepEqual(calls.rejectedByDocument.byRoute, {
    'POST /mc/apps': 1,
    'GET /pullzone/{id}': 1,
  });
  t.deepEqual(calls.rejectedByDocument.log[0].problems, ['runtimeType is required']);
  await admin(sim, 'DELETE', '/_sim/calls');
  t.is(((await admin(sim, 'GET', '/_sim/calls')).body as any).rejectedByDocument.count, 0);
});

test('the document check runs after authentication: no key is 401, not a document rejection', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  const res = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/apps',
    body: {},
    key: null,
  });
  t.is(res.status, 401);
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0);
});

test('documents that cannot be read stop a strict start; --no-strict starts without them', async (t) => {
  const err = await t.throwsAsync(startTestSim({ openApiDir: '/nonexistent-openapi' }));
  t.regex(err.message, /cannot read the official documents: .*--openapi-dir/);
  const sim = await startTestSim({ openApiDir: '/nonexistent-openapi', strict: false });
  t.teardown(() => sim.close());
  const { runtimeType: _r, ...bad } = app;
  const res = await call(t, sim, { area: 'mc', method: 'POST', template: '/mc/apps', body: bad });
  t.is(res.status, 400, 'the handler still requires runtimeType');
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0);
});

test('every new pull zone has its own token-authentication key (ZoneSecurityKey)', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  const keys: unknown[] = [];
  for (const name of ['zsk-a', 'zsk-b']) {
    const id = await createPullZone(t, sim, name);
    const res = await call(t, sim, {
      area: 'core',
      method: 'GET',
      template: '/pullzone/{id}',
      params: { id },
    });
    keys.push((res.body as any).ZoneSecurityKey);
  }
  for (const k of keys) t.regex(String(k), /^[0-9a-f-]{36}$/);
  t.not(keys[0], keys[1]);
});

test('cdn-sim flags: strict unless --no-strict; --openapi-dir', (t) => {
  t.true(parseCli(['--api-key', TEST_KEY]).strict);
  const off = parseCli(['--api-key', TEST_KEY, '--no-strict', '--openapi-dir', '/docs']);
  t.false(off.strict);
  t.is(off.openApiDir, '/docs');
});

test('fieldOf turns pointers into the field paths of error bodies', (t) => {
  t.is(fieldOf('/containerTemplates/0/endpoints/1/id'), 'containerTemplates[0].endpoints[1].id');
  t.is(fieldOf('/'), 'body');
  t.is(fieldOf('perPage'), 'perPage');
});
