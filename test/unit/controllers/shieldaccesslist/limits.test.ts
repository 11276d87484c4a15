/**
 * The plan's custom list limits read from the zone's listing (shieldaccesslist/limits.ts): a
 * create or an entry change beyond them is refused before it is sent, as PlanNotSufficient
 * (retried slowly), naming the limit; an update is never refused for the list count.
 */
import test from 'ava';
import type { AccessListsOverview } from '../../../../src/cdn/security-types.js';
import { checkLimits } from '../../../../src/controllers/shieldaccesslist/limits.js';
import { PlanNotSufficientError } from '../../../../src/controllers/shieldrule-common/external.js';

function overview(lists: number[], listLimit = 5, entryLimit = 1000): AccessListsOverview {
  return {
    customLists: lists.map((entryCount, i) => ({
      listId: i + 1,
      configurationId: 100 + i,
      name: `l${i}`,
      isEnabled: true,
      type: 0,
      action: 2,
      entryCount,
      lastUpdated: '2026-01-01T00:00:00Z',
    })),
    customListCount: lists.length,
    customListLimit: listLimit,
    customEntryCount: lists.reduce((a, b) => a + b, 0),
    customEntryLimit: entryLimit,
  };
}

const CASES: [why: string, run: () => void, limit: string | undefined][] = [
  [
    'a create within both limits',
    () => checkLimits(overview([10, 10]), 1, undefined, 980),
    undefined,
  ],
  [
    'a create at the list limit',
    () => checkLimits(overview([1, 1, 1, 1, 1]), 1, undefined, 1),
    'customListLimit',
  ],
  [
    'a create beyond the entry limit',
    () => checkLimits(overview([500]), 1, undefined, 501),
    'customEntryLimit',
  ],
  [
    'a create with no limits in the listing',
    () => checkLimits({ customLists: [] }, 1, undefined, 1e6),
    undefined,
  ],
  [
    'an update within the limit (its own entries replaced)',
    () => checkLimits(overview([500, 400]), 1, 1, 600),
    undefined,
  ],
  [
    'an update of a zone at its list limit (the list count is for creates)',
    () => checkLimits(overview([1, 1, 1, 1, 1]), 1, 1, 1),
    undefined,
  ],
  [
    'an update beyond the limit',
    () => checkLimits(overview([500, 400]), 1, 1, 601),
    'customEntryLimit',
  ],
];
for (const [why, run, limit] of CASES) {
  test(`limits: ${why}`, (t) => {
    if (limit === undefined) return void t.notThrows(run);
    const err = t.throws(run, { instanceOf: PlanNotSufficientError });
    t.true(err?.message.includes(limit), err?.message);
  });
}
