/**
 * `GET /region` lists the platform's regions by the platform's codes and names: a client looks a
 * region up by exact code and name (the vendor's Terraform provider checks `LJ`, issue 49).
 */
import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

interface Region {
  Id: number;
  Name: string;
  RegionCode: string;
  ContinentCode: string;
  CountryCode: string;
}

async function regions(t: Parameters<typeof call>[0]): Promise<Region[]> {
  const res = await call(t, sim, { area: 'core', method: 'GET', template: '/region' });
  t.is(res.status, 200);
  return res.body as Region[];
}

const CASES: Array<[code: string, name: string, continent: string, why: string]> = [
  ['LJ', 'EU: Ljubljana, SI', 'EU', "the vendor's acceptance test looks it up"],
  ['DE', 'EU: Frankfurt, DE', 'EU', 'the main storage region'],
  ['NY', 'NA: New York City, NY', 'NA', 'a North American region'],
  ['SYD', 'OC: Sydney, SYD', 'OC', 'a three-letter code'],
  ['BS', 'LATAM: Brasilia, BR', 'SA', 'Latin America counts as South America'],
  ['AE', 'ME: Dubai, AE', 'AS', 'the Middle East counts as Asia'],
];

for (const [code, name, continent, why] of CASES) {
  test(`region ${code} is listed as the platform names it (${why})`, async (t) => {
    const found = (await regions(t)).find((r) => r.RegionCode === code);
    t.like(found, { Name: name, ContinentCode: continent });
  });
}

test('codes and ids are unique, and every country code is two letters', async (t) => {
  const list = await regions(t);
  t.true(list.length > 100, `${list.length} regions`);
  t.is(new Set(list.map((r) => r.RegionCode)).size, list.length);
  t.is(new Set(list.map((r) => r.Id)).size, list.length);
  t.deepEqual(
    list.filter((r) => !/^[A-Z]{2}$/.test(r.CountryCode)).map((r) => r.RegionCode),
    [],
  );
});
