/**
 * Short fault-injection suite, restarts group (bench/chaos/suite.ts): apiserver outage (no
 * missed spec change, at most one relist per informer), `kill -9` during creates with
 * commit-then-drop (exactly one platform resource per object), leader failover (standby
 * idle while the leader lives, writes never interleave) and the secret leak scan. Runs on
 * its own private control plane; every assertion is count-based.
 */
import test from 'ava';
import type { ScenarioResult } from '../../../bench/chaos/common.js';
import { runRestartsGroup } from '../../../bench/chaos/suite.js';

let results: ScenarioResult[] = [];

test.before(async (t) => {
  t.timeout(900_000);
  results = await runRestartsGroup('short', (m) => t.log(m));
});

const scenarios = [
  { prefix: '4.', why: 'an apiserver outage loses no spec change and relists once' },
  { prefix: '3.', why: 'kill -9 during creates leaves exactly one platform resource per object' },
  { prefix: '5.', why: 'leader failover never has two replicas reconciling' },
  {
    prefix: '5b.',
    why: 'a leader frozen with SIGSTOP writes nothing to the platform after the new leader did',
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
