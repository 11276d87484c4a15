import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import type { ApiArea } from '../../support/openapi.js';
import { admin, call, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

const ROUTES: Array<[ApiArea, string, string, Record<string, string | number>]> = [
  ['core', 'GET', '/pullzone', {}],
  ['core', 'POST', '/pullzone', {}],
  ['core', 'GET', '/pullzone/{id}', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}', { id: 1 }],
  ['core', 'DELETE', '/pullzone/{id}', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}/addHostname', { id: 1 }],
  ['core', 'DELETE', '/pullzone/{id}/removeHostname', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}/addCertificate', { id: 1 }],
  ['core', 'DELETE', '/pullzone/{id}/removeCertificate', { id: 1 }],
  ['core', 'GET', '/pullzone/loadFreeCertificate', {}],
  ['core', 'POST', '/pullzone/{id}/setForceSSL', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}/updatePrivateKeyType', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}/addAllowedReferrer', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}/removeAllowedReferrer', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}/addBlockedReferrer', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}/removeBlockedReferrer', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}/addBlockedIp', { id: 1 }],
  ['core', 'POST', '/pullzone/{id}/removeBlockedIp', { id: 1 }],
  ['core', 'POST', '/videolibrary/{id}/addBlockedReferrer', { id: 1 }],
  ['core', 'POST', '/storagezone/checkavailability', {}],
  ['core', 'GET', '/apikey', {}],
  ['mc', 'GET', '/mc/apps', {}],
  ['mc', 'POST', '/mc/apps', {}],
  ['mc', 'GET', '/mc/apps/{appId}', { appId: 'a' }],
  ['mc', 'PUT', '/mc/apps/{appId}', { appId: 'a' }],
  ['mc', 'PATCH', '/mc/apps/{appId}', { appId: 'a' }],
  ['mc', 'DELETE', '/mc/apps/{appId}', { appId: 'a' }],
  ['mc', 'GET', '/mc/apps/{appId}/containers/{containerId}', { appId: 'a', containerId: 'c' }],
  ['shield', 'GET', '/shield/shield-zone/get-by-pullzone/{pullZoneId}', { pullZoneId: 1 }],
  ['shield', 'GET', '/shield/shield-zone/{shieldZoneId}', { shieldZoneId: 1 }],
  ['shield', 'GET', '/shield/shield-zones', {}],
  ['shield', 'POST', '/shield/shield-zone', {}],
  ['shield', 'PATCH', '/shield/shield-zone', {}],
  [
    'shield',
    'GET',
    '/shield/metrics/shield-zone/{shieldZoneId}/waf-rule/{ruleId}',
    { shieldZoneId: 1, ruleId: 'r1' },
  ],
];

for (const [area, method, template, params] of ROUTES) {
  test(`AccessKey required: ${method} ${template} is 401 without it and with a wrong one (${area} body shape)`, async (t) => {
    for (const key of [null, 'wrong-key']) {
      const res = await call(t, sim, {
        area,
        method,
        template,
        params,
        key,
        body: method === 'GET' ? undefined : {},
      });
      t.is(res.status, 401, `key=${String(key)}`);
    }
  });
}

test('401 bodies per area: core empty, mc ProblemDetails, shield list status-only, shield single ProblemDetails', async (t) => {
  const core = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone',
    key: null,
  });
  t.is(core.body, undefined);
  const mc = await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/apps', key: null });
  t.like(mc.body, { status: 401, title: 'Unauthorized' });
  const list = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/shield-zones',
    key: null,
  });
  t.deepEqual(list.body, { statusCode: 401 });
  const single = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/shield-zone/{shieldZoneId}',
    params: { shieldZoneId: 1 },
    key: null,
  });
  t.like(single.body, { status: 401 });
});

test('a second configured key is accepted too', async (t) => {
  const other = await startTestSim({
    apiKeys: [{ key: 'one' }, { key: 'two', roles: ['ReadOnly'] }],
  });
  t.teardown(() => other.close());
  t.is(
    (await call(t, other, { area: 'core', method: 'GET', template: '/pullzone', key: 'two' }))
      .status,
    200,
  );
});

test('admin routes need X-Sim-Admin-Token (an AccessKey is not enough)', async (t) => {
  t.is((await admin(sim, 'GET', '/_sim/state', undefined, null)).status, 401);
  t.is((await admin(sim, 'GET', '/_sim/state', undefined, 'wrong')).status, 401);
  const res = await fetch(`${sim.url}/_sim/state`, { headers: { AccessKey: 'test-access-key' } });
  t.is(res.status, 401);
  t.is((await admin(sim, 'GET', '/_sim/state')).status, 200);
});
