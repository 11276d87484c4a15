/**
 * The plan's custom list limits read from the zone's listing (shieldaccesslist/limits.ts): a
 * create or an entry change beyond them is refused before it is sent, as PlanNotSufficient
 * (retried slowly), naming the limit.
 */
import test from 'ava';
import type { AccessListsOverview } from '../../../../src/cdn/security-types.js';
import {
  checkCreateLimits,
  checkUpdateLimits,
} from '../../../../src/controllers/shieldaccesslist/limits.js';
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
  ['a create within both limits', () => checkCreateLimits(overview([10, 10]), 1, 980), undefined],
  [
    'a create at the list limit',
    () => checkCreateLimits(overview([1, 1, 1, 1, 1]), 1, 1),
    'customListLimit',
  ],
  [
    'a create beyond the entry limit',
    () => checkCreateLimits(overview([500]), 1, 501),
    'customEntryLimit',
  ],
  [
    'a create with no limits in the listing',
    () => checkCreateLimits({ customLists: [] }, 1, 1e6),
    undefined,
  ],
  [
    'an update within the limit (its own entries replaced)',
    () => checkUpdateLimits(overview([500, 400]), 1, 1, 600),
    undefined,
  ],
  [
    'an update beyond the limit',
    () => checkUpdateLimits(overview([500, 400]), 1, 1, 601),
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
