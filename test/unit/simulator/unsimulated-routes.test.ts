/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are read loosely here; call() has already validated each against the official schema */
/**
 * Documented routes cdn-sim does not simulate answer 501 with a clear body in the area's error
 * shape, never a bare 404 (a client reads 404 as "gone" and drops the resource from its
 * state); `/region` is static data and is served (issue 30, item 6).
 */
import test from 'ava';
import { defaultDocumentsDir, loadDocuments } from '../../../src/simulator/documents/load.js';
import { documentPath } from '../../../src/simulator/documents/request-check.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import type { ApiArea } from '../../support/openapi-docs.js';
import { simulatedRoutes } from '../../../src/simulator/routes/all-routes.js';
import { unsimulatedRoutes } from '../../../src/simulator/routes/unsimulated.js';
import { call, rawCall, startTestSim, TEST_KEY } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

type Json = Record<string, any>;

const CASES: Array<
  [ApiArea, string, string, Record<string, string | number>, (body: Json) => void]
> = [
  [
    'core',
    'GET',
    '/storagezone/{id}/statistics',
    { id: 7 },
    (b) => b.ErrorKey === 'simulator.not_simulated',
  ],
  ['core', 'GET', '/pullzone/count', {}, (b) => typeof b.Message === 'string'],
  ['mc', 'GET', '/mc/limits', {}, (b) => b.status === 501 && typeof b.detail === 'string'],
  [
    'shield',
    'GET',
    '/shield/shield-zone/{shieldZoneId}/bot-categorization',
    { shieldZoneId: 1 },
    (b) => b.error?.errorKey === 'simulator.not_simulated',
  ],
  [
    'shield',
    'GET',
    '/shield/waf/profiles',
    {},
    (b) => b.error?.statusCode === 501 && b.error?.success === false,
  ],
];

for (const [area, method, template, params, shaped] of CASES) {
  test(`${method} ${template}: 501 with the ${area} error shape naming the route`, async (t) => {
    const res = await call(t, sim, { area, method, template, params });
    t.is(res.status, 501);
    t.true(shaped(res.body as Json), JSON.stringify(res.body));
    t.regex(JSON.stringify(res.body), new RegExp(`${method} ${template.replace(/[{}]/g, '\\$&')}`));
    t.regex(JSON.stringify(res.body), /not simulate/);
  });
}

test('501 answers are counted under the documented route, and still need an AccessKey', async (t) => {
  await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/storagezone/{id}/statistics',
    params: { id: 9 },
  });
  const counter = sim.calls.snapshot().routes['GET /storagezone/{id}/statistics'];
  t.truthy(counter);
  t.true((counter?.byStatus['501'] ?? 0) >= 1);
  const anonymous = await rawCall(sim, {
    area: 'core',
    method: 'GET',
    template: '/storagezone/{id}/statistics',
    params: { id: 9 },
    key: null,
  });
  t.is(anonymous.status, 401);
});

test('a path no document has is still a bare 404, and a method no document has on it a 405', async (t) => {
  const unknown = await rawCall(sim, { area: 'core', method: 'GET', template: '/no-such-area/1' });
  t.is(unknown.status, 404);
  const method = await rawCall(sim, { area: 'core', method: 'PUT', template: '/pullzone/1' });
  t.is(method.status, 405);
});

test('GET /region is served: a static list of RegionModel entries', async (t) => {
  const res = await call(t, sim, { area: 'core', method: 'GET', template: '/region' });
  t.is(res.status, 200);
  const regions = res.body as Json[];
  t.true(regions.length >= 10, 'a plausible list of regions');
  const ids = new Set(regions.map((r) => r.Id as number));
  t.is(ids.size, regions.length, 'ids are unique');
  const codes = regions.map((r) => r.RegionCode as string);
  for (const code of ['DE', 'NY', 'LA', 'SG']) t.true(codes.includes(code), code);
  for (const r of regions) {
    t.true(Math.abs(r.Latitude as number) <= 90 && Math.abs(r.Longitude as number) <= 180);
  }
});

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

test('every DNS operation of the core document is simulated, none answers 501 (issue 33)', (t) => {
  const documents = loadDocuments(defaultDocumentsDir());
  const dns = Object.entries(documents.core.paths as Record<string, Json>).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => METHODS.includes(m) && /dns/i.test(path))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  const unsimulated = new Set(
    unsimulatedRoutes(documents, simulatedRoutes([])).map((r) => `${r.method} ${r.template}`),
  );
  t.true(dns.length >= 20, `${dns.length} DNS operations in the document`);
  t.deepEqual(
    dns.filter((key) => unsimulated.has(key)),
    [],
  );
});

function fill(template: string, params: Json[]): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = params.find((x) => x.name === name);
    const type = p?.schema?.type as string | undefined;
    return type === 'integer' || type === 'number' ? '1' : 'x';
  });
}

test('every documented operation cdn-sim does not simulate answers 501 (none a bare 404 or a 405)', async (t) => {
  const documents = loadDocuments(defaultDocumentsDir());
  const simulated = new Set(simulatedRoutes([]).map((r) => `${r.method} ${r.template}`));
  let checked = 0;
  for (const area of ['core', 'mc', 'shield'] as const) {
    const paths = documents[area].paths as Record<string, Record<string, Json>>;
    for (const [path, ops] of Object.entries(paths)) {
      const template = area === 'mc' ? `/mc${path}` : path;
      t.is(documentPath(area, template), path);
      for (const [method, op] of Object.entries(ops)) {
        const key = `${method.toUpperCase()} ${template}`;
        if (!METHODS.includes(method) || simulated.has(key)) continue;
        const url = `${sim.url}${fill(template, (op.parameters as Json[] | undefined) ?? [])}`;
        const res = await fetch(url, {
          method: method.toUpperCase(),
          headers: { AccessKey: TEST_KEY, 'content-type': 'application/json' },
          // A body the documents may reject: the strict check (400) or 501, never 404/405.
          ...(op.requestBody ? { body: '{}' } : {}),
        });
        const text = await res.text();
        checked++;
        t.true([400, 501].includes(res.status), `${key}: ${res.status} ${text}`);
        t.not(text, '', `${key}: a body that says why`);
      }
    }
  }
  t.true(checked > 80, `${checked} documented operations not simulated`);
});
