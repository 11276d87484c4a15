/**
 * The short fault-injection groups as ava tests: the group runs once before all (on its own
 * private control plane), then one test per scenario asserts every one of its checks.
 */
import test from 'ava';
import type { ScenarioResult } from '../../../bench/chaos/common.js';
import type { Profile } from '../../../bench/chaos/suite.js';

/** A scenario to assert: its number prefix and what it shows. */
export interface ScenarioSpec {
  prefix: string;
  why: string;
}

/** Registers the tests of one group. */
export function testGroup(
  run: (profile: Profile, log: (m: string) => void) => Promise<ScenarioResult[]>,
  scenarios: ScenarioSpec[],
): void {
  let results: ScenarioResult[] = [];
  test.before(async (t) => {
    t.timeout(900_000);
    results = await run('short', (m) => t.log(m));
  });
  for (const s of scenarios) {
    test(`scenario ${s.prefix} ${s.why}`, (t) => {
      const r = results.find((x) => x.scenario.startsWith(s.prefix));
      if (!r) return t.fail(`scenario ${s.prefix} did not run`);
      t.log(JSON.stringify(r.figures));
      for (const c of r.checks) t.true(c.ok, `${r.scenario}: ${c.name}: ${c.detail}`);
    });
  }
}
