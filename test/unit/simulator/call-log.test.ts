/* eslint-disable @typescript-eslint/no-explicit-any -- the call log is read loosely here */
import test from 'ava';
import { TEST_KEY, admin, rawCall, startTestSim } from '../../support/sim-client.js';

type Json = Record<string, any>;

test('call log: a write names the object it was for, a tagged caller is recorded, commit-then-drop is marked committed', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  const tagged = await fetch(`${sim.url}/pullzone`, {
    method: 'POST',
    headers: {
      AccessKey: TEST_KEY,
      'content-type': 'application/json',
      'X-Sim-Client': 'replica-1',
    },
    body: JSON.stringify({ Name: 'tagged-zone', OriginUrl: 'https://o.example.com' }),
  });
  t.is(tagged.status, 201);
  await admin(sim, 'PUT', '/_sim/faults', {
    commitThenDropRate: 1,
    errorRoutes: ['POST /pullzone'],
  });
  await t.throwsAsync(
    rawCall(sim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone',
      body: { Name: 'dropped-zone' },
    }),
  );
  await admin(sim, 'PUT', '/_sim/faults', {});
  await rawCall(sim, { area: 'core', method: 'GET', template: '/pullzone' });
  const log = ((await admin(sim, 'GET', '/_sim/calls')).body as Json).log as Json[];
  const creates = log.filter((e) => e.route === 'POST /pullzone');
  t.like(creates[0], { name: 'tagged-zone', client: 'replica-1', status: 201 });
  t.is(creates[0]!.committed, undefined, 'an answered write is not marked');
  t.like(creates[1], { name: 'dropped-zone', status: 0, committed: true });
  t.is(creates[1]!.client, undefined, 'an untagged caller has no client');
  const read = log.find((e) => e.route === 'GET /pullzone');
  t.is(read?.name, undefined, 'reads carry no name');
});
