import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import type { CallsSnapshot } from '../../../src/simulator/calls.js';
import { admin, rawCall, startTestSim } from '../../support/sim-client.js';

const KEYS = ['shard-a-key', 'shard-b-key'];

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim({ apiKeys: KEYS.map((key) => ({ key })) });
});
test.after.always(async () => {
  await sim.close();
});

const list = { area: 'core', method: 'GET', template: '/pullzone' } as const;

test.serial('the call log names the AccessKey by its index, never by value', async (t) => {
  await admin(sim, 'DELETE', '/_sim/calls');
  const cases: Array<[key: string | null, index: number, reason: string]> = [
    ['shard-b-key', 1, 'second configured key'],
    ['shard-a-key', 0, 'first configured key'],
    ['not-a-key', -1, 'unknown key (answered 401)'],
    [null, -1, 'no AccessKey header'],
  ];
  for (const [key] of cases) await rawCall(sim, { ...list, key });
  const snap = (await admin(sim, 'GET', '/_sim/calls')).body as CallsSnapshot;
  t.deepEqual(
    snap.log.map((e) => e.key),
    cases.map(([, index]) => index),
    cases.map(([, , reason]) => reason).join('; '),
  );
  t.false(JSON.stringify(snap).includes('shard-a-key'), 'no key value in the snapshot');
});

test.serial('GET /_sim/calls?since= returns only the entries logged after it', async (t) => {
  await admin(sim, 'DELETE', '/_sim/calls');
  await rawCall(sim, list);
  const first = (await admin(sim, 'GET', '/_sim/calls')).body as CallsSnapshot;
  const cut = first.log[0]?.t ?? 0;
  await new Promise((r) => setTimeout(r, 5));
  await rawCall(sim, { ...list, key: 'shard-b-key' });
  const tail = (await admin(sim, 'GET', `/_sim/calls?since=${cut}`)).body as CallsSnapshot;
  t.deepEqual(
    tail.log.map((e) => e.key),
    [1],
    'only the call after the cut, the first call is left out',
  );
  t.is(tail.routes['GET /pullzone']?.count, 2, 'counters are never filtered');
  const all = (await admin(sim, 'GET', '/_sim/calls?since=0')).body as CallsSnapshot;
  t.is(all.log.length, 2);
  const badSince = await admin(sim, 'GET', '/_sim/calls?since=yesterday');
  t.is(badSince.status, 400, 'a non-numeric since is refused');
});
