/**
 * Strictness for us, live semantics for everybody (issue 30, item 2): cdn-sim answers a
 * request the live platform would bind (case, unknown members, nulls), but records every request
 * that did not match the official documents exactly in `rejectedByDocument`, with
 * `accepted: true` when it was answered anyway. The zero-rejection assertions of the e2e tests
 * and of the cdnctl run read that record, so they still fail when our client sends a member in
 * the wrong case.
 */
import test, { type ExecutionContext } from 'ava';
import { CdnClient } from '../../../src/cdn/client.js';
import type { PullZoneSettings } from '../../../src/cdn/types.js';
import type { RejectedSnapshot } from '../../../src/simulator/calls.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, createPullZone, startTestSim, TEST_KEY } from '../../support/sim-client.js';

function rejections(sim: SimulatorHandle): RejectedSnapshot {
  return sim.calls.snapshot().rejectedByDocument;
}

/** The assertion every zero-rejection check makes (e2e lifecycles, the cdnctl run). */
function operatorSentOnlyExactRequests(sim: SimulatorHandle): boolean {
  return rejections(sim).count === 0;
}

async function withClient(
  t: ExecutionContext,
): Promise<{ sim: SimulatorHandle; client: CdnClient }> {
  const sim = await startTestSim();
  const client = new CdnClient({ baseUrl: sim.url, credentials: TEST_KEY });
  t.teardown(async () => {
    client.close();
    await sim.close();
  });
  return { sim, client };
}

test('exact requests from our client leave the record empty', async (t) => {
  const { sim, client } = await withClient(t);
  const zone = await client.addPullZone({ Name: 'exact-zone', OriginUrl: 'https://o.example' });
  await client.updatePullZone(zone.Id!, { EnableWebpVary: true, OriginUrl: 'https://p.example' });
  t.true(operatorSentOnlyExactRequests(sim));
});

test('our client sending a member in the wrong case: answered like the live API, and the zero-rejection check FAILS', async (t) => {
  const { sim, client } = await withClient(t);
  const zone = await client.addPullZone({ Name: 'wrong-case', OriginUrl: 'https://o.example' });
  // The record's spelling (EnableWebPVary) instead of the update model's (EnableWebpVary).
  const wrong = { EnableWebPVary: true } as unknown as PullZoneSettings;
  const updated = await client.updatePullZone(zone.Id!, wrong);
  t.is(updated.EnableWebPVary, true, 'the live platform binds it; so does cdn-sim');
  t.false(operatorSentOnlyExactRequests(sim), 'the CI assertion must fail');
  const record = rejections(sim);
  t.is(record.count, 1);
  t.deepEqual(record.byRoute, { 'POST /pullzone/{id}': 1 });
  t.is(record.log[0]?.accepted, true);
  t.regex(record.log[0]?.problems.join('; ') ?? '', /EnableWebPVary.*EnableWebpVary/);
});

const INEXACT: Array<[string, Record<string, unknown>, RegExp]> = [
  ['a member in another case', { originUrl: 'https://x.example' }, /originUrl/],
  ['a member the model does not have', { Id: 5, OriginUrl: 'https://x.example' }, /Id/],
  ['null where the document does not allow it', { PreloadingScreenShowOnFirstVisit: null }, /null/],
];

for (const [what, body, problem] of INEXACT) {
  test(`${what}: answered 200, recorded as not exactly documented`, async (t) => {
    const sim = await startTestSim();
    t.teardown(() => sim.close());
    const id = await createPullZone(t, sim, 'inexact');
    const res = await call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone/{id}',
      params: { id },
      body,
    });
    t.is(res.status, 200, JSON.stringify(res.body));
    const record = rejections(sim);
    t.is(record.count, 1);
    t.is(record.log[0]?.accepted, true);
    t.regex(record.log[0]?.problems.join('; ') ?? '', problem);
  });
}

test('a query parameter in another case is bound and recorded; an exact one is not', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  for (let i = 0; i < 6; i++) await createPullZone(t, sim, `q-${i}`);
  const exact = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone',
    query: { page: 1, perPage: 5 },
  });
  t.is((exact.body as { Items: unknown[] }).Items.length, 5);
  t.is(rejections(sim).count, 0);
  const other = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone',
    query: { Page: 2, PerPage: 5 },
  });
  t.is(
    (other.body as { Items: unknown[] }).Items.length,
    1,
    'Page and PerPage bind to page and perPage',
  );
  t.is(rejections(sim).count, 1);
  t.is(rejections(sim).log[0]?.accepted, true);
});
