/**
 * Short fault-injection suite, slow-platform group (bench/chaos/slow-platform-group.ts): every
 * create of every kind answered after the operator's client timeout and late in listings;
 * each object ends with exactly one platform resource, recorded in its status, and none is
 * left after deletion; then the secret leak scan. Runs on its own private control plane.
 */
import test from 'ava';
import type { ScenarioResult } from '../../../bench/chaos/common.js';
import { runSlowPlatformGroup } from '../../../bench/chaos/slow-platform-group.js';

let results: ScenarioResult[] = [];

test.before(async (t) => {
  t.timeout(900_000);
  results = await runSlowPlatformGroup('short', (m) => t.log(m));
});

const scenarios = [
  {
    prefix: '8.',
    why: 'a slow platform neither duplicates, leaks nor loses a resource of any kind',
  },
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
