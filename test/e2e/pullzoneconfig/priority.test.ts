/**
 * The priority lane end to end (issue 17): with a burst of creates in flight on one account, a
 * change to an existing PullZoneConfig reaches cdn-sim well before the creates finish. Real
 * kube-apiserver, real operator process, cdn-sim with latency; order counted from the
 * simulator's call log (completion order), no timing assertion.
 */
import test from 'ava';
import { apply } from '../support/kube.js';
import { pzcYaml, startEnv, waitCondition, type Env } from './setup.js';

let env: Env;

test.before(async () => {
  env = await startEnv('e2e-pzc-lane');
});

test.after.always(async () => {
  await env?.stop();
});

interface LoggedCall {
  method: string;
  route: string;
  path: string;
}

async function callLog(): Promise<LoggedCall[]> {
  const res = await fetch(`${env.sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': env.sim.adminToken },
  });
  return ((await res.json()) as { log: LoggedCall[] }).log;
}

/** `POST /pullzone` (create) answers among the first `end` logged calls. */
function createsIn(log: LoggedCall[], end = log.length): number {
  return log.slice(0, end).filter((c) => c.method === 'POST' && c.route === 'POST /pullzone')
    .length;
}

test('an update to an existing zone is not queued behind a burst of creates', async (t) => {
  const settings = { originUrl: 'https://origin.example.com' };
  await apply(pzcYaml(env.ns, 'existing', { settings }));
  const ready = await waitCondition(env.ns, 'existing', 'Ready', 'True');
  const id = Number(ready.status?.pullZoneId);
  // Every platform answer now takes 1 s: with 8 workers the burst takes about 15 s.
  env.sim.faults.set({ latencyMs: 1000 });
  const BURST = 120;
  const burst = Array.from(
    { length: BURST },
    (_, i) => JSON.parse(pzcYaml(env.ns, `burst-${i}`, { settings })) as unknown,
  );
  await apply(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: burst }));
  await apply(
    pzcYaml(env.ns, 'existing', { settings: { originUrl: 'https://changed.example.com' } }),
  );
  // Creates answered when the change was applied (the first create is the existing zone's).
  const doneAtChange = createsIn(await callLog()) - 1;
  const remaining = BURST - doneAtChange;
  await waitCondition(env.ns, 'existing', 'Synced', 'True', undefined, 180_000);
  const log = await callLog();
  const update = log.findIndex((c) => c.method === 'POST' && c.path === `/pullzone/${id}`);
  t.true(update >= 0, 'the update reached the platform');
  const overtaking = createsIn(log, update) - 1 - doneAtChange;
  t.log(`${remaining} creates outstanding at the change; ${overtaking} answered before the update`);
  t.true(remaining >= 20, `the burst was nearly done (${remaining} left) before the change`);
  // FIFO behind the burst (the old single high lane) lets every outstanding create go first.
  t.true(
    overtaking < remaining / 2,
    `${overtaking} of ${remaining} outstanding creates went before the update`,
  );
  t.is(env.sim.state.pullZones.get(id)?.record.OriginUrl, 'https://changed.example.com');
});
