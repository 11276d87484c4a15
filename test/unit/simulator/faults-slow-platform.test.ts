/**
 * cdn-sim faults of a slow platform (issue 29): `slowCommit` holds a write and applies it after
 * the client's timeout; `listingDelayMs` keeps a new resource out of its collection's listing
 * for a while (reads by id see it at once).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are read loosely here */
import test from 'ava';
import { checkFaultConfig } from '../../../src/simulator/faults.js';
import { appRequest } from '../cdn/fixtures.js';
import { TEST_KEY, admin, call, createPullZone, startTestSim } from '../../support/sim-client.js';

type Json = Record<string, any>;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('slowCommit: the client gives up first, the platform commits the create afterwards', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  t.is(
    (
      await admin(sim, 'PUT', '/_sim/faults', {
        slowCommit: { routes: ['POST /pullzone'], delayMs: 4000 },
      })
    ).status,
    200,
  );
  const aborted = await fetch(`${sim.url}/pullzone`, {
    method: 'POST',
    headers: { AccessKey: TEST_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ Name: 'slow-a', OriginUrl: 'https://origin.example' }),
    signal: AbortSignal.timeout(300),
  }).then(
    () => 'answered',
    () => 'timed out',
  );
  t.is(aborted, 'timed out', 'no answer within the client timeout');
  const names = async (): Promise<string[]> =>
    (
      (await call(t, sim, { area: 'core', method: 'GET', template: '/pullzone' })).body as Json[]
    ).map((z) => z.Name as string);
  t.deepEqual(await names(), [], 'not committed yet');
  let after: string[] = [];
  for (let i = 0; i < 100 && after.length === 0; i++) {
    await sleep(100);
    after = await names();
  }
  t.deepEqual(after, ['slow-a'], 'committed after the client gave up');
  // Other routes are not held.
  const started = Date.now();
  await call(t, sim, { area: 'core', method: 'GET', template: '/pullzone' });
  t.true(Date.now() - started < 3000);
});

test('listingDelayMs: a new pull zone and a new app are left out of their listings, not out of reads by id', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  await admin(sim, 'PUT', '/_sim/faults', { listingDelayMs: 4000 });
  const id = await createPullZone(t, sim, 'late-a');
  const listed = async (): Promise<number[]> =>
    // A search answers the paged form (docs/simulator.md).
    (
      (
        await call(t, sim, {
          area: 'core',
          method: 'GET',
          template: '/pullzone',
          query: { search: 'late-a' },
        })
      ).body as { Items: Json[] }
    ).Items.map((z) => z.Id as number);
  t.deepEqual(await listed(), [], 'not listed yet');
  const paged = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone',
    query: { page: 1, perPage: 5 },
  });
  t.deepEqual((paged.body as Json).Items, [], 'paged listing too');
  const byId = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id },
  });
  t.is(byId.status, 200, 'a read by id sees it');
  let later: number[] = [];
  for (let i = 0; i < 100 && later.length === 0; i++) {
    await sleep(100);
    later = await listed();
  }
  t.deepEqual(later, [id], 'listed once the delay is over');
  await admin(sim, 'PUT', '/_sim/faults', { listingDelayMs: 60_000 });
  const app = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/apps',
    body: appRequest('late-app'),
  });
  t.true(app.status < 300, JSON.stringify(app.body));
  const apps = await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/apps' });
  t.false(
    ((apps.body as Json).items as Json[]).some((a) => a.name === 'late-app'),
    'the new app is not listed',
  );
  await admin(sim, 'PUT', '/_sim/faults', {});
  const all = await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/apps' });
  t.true(
    ((all.body as Json).items as Json[]).some((a) => a.name === 'late-app'),
    'listed once the fault is off',
  );
});

const BAD: Array<[unknown, string]> = [
  [{ slowCommit: { routes: 'POST /pullzone', delayMs: 1 } }, 'routes not a list'],
  [{ slowCommit: { routes: [], delayMs: -1 } }, 'negative delay'],
  [{ listingDelayMs: 'soon' }, 'delay not a number'],
];
for (const [config, reason] of BAD) {
  test(`slow-platform fault config rejected: ${reason}`, (t) => {
    t.truthy(checkFaultConfig(config));
  });
}
