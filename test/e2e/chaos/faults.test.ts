/**
 * Short fault-injection suite, faults group (bench/chaos/suite.ts): 429 Retry-After window,
 * 5xx storm during creates (all Ready, no duplicates, calls bounded), invalid manifests
 * (rejected naming the field or Synced=False; no platform call; no restart) and the secret
 * leak scan. Runs on its own private control plane; every assertion is count-based.
 */
import test from 'ava';
import type { ScenarioResult } from '../../../bench/chaos/common.js';
import { runFaultsGroup } from '../../../bench/chaos/suite.js';

let results: ScenarioResult[] = [];

test.before(async (t) => {
  t.timeout(900_000);
  results = await runFaultsGroup('short', (m) => t.log(m));
});

const scenarios = [
  { prefix: '2.', why: 'a 429 pauses every request of the account for Retry-After' },
  {
    prefix: '1.',
    why: 'a 5xx storm neither loses nor duplicates creates, and backoff bounds the calls',
  },
  { prefix: '6.', why: 'invalid input is stopped before it costs a platform call or a crash' },
  { prefix: '7.', why: 'the API key and Secret values never appear in logs, events or objects' },
];

for (const s of scenarios) {
  test(`scenario ${s.prefix} ${s.why}`, (t) => {
    const r = results.find((x) => x.scenario.startsWith(s.prefix));
    if (!r) return t.fail(`scenario ${s.prefix} did not run`);
    t.log(JSON.stringify(r.figures));
    for (const c of r.checks) t.true(c.ok, `${r.scenario}: ${c.name}: ${c.detail}`);
  });
}
