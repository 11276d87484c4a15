/**
 * The plan's custom list limits, read from the zone's listing (`customListLimit`,
 * `customEntryLimit` and the counts beside them): a create or an entry change that would go
 * beyond them is refused before it is sent, as {@link PlanNotSufficientError} (Synced=False
 * PlanNotSufficient, tried again after a few minutes, never a hot loop nor InvalidSpec). A limit
 * the listing does not give is not checked here; the platform's own 403 is reported the same way.
 */
import type { AccessListsOverview } from '../../cdn/security-types.js';
import { PlanNotSufficientError } from '../shieldrule-common/external.js';

function limitOf(v: number | null | undefined): number | undefined {
  return typeof v === 'number' && v >= 0 ? v : undefined;
}

function entriesOutside(overview: AccessListsOverview, listId: number | undefined): number {
  const lists = overview.customLists ?? [];
  if (listId === undefined && typeof overview.customEntryCount === 'number')
    return overview.customEntryCount;
  return lists.filter((l) => l.listId !== listId).reduce((n, l) => n + (l.entryCount ?? 0), 0);
}

/** Refuses `entries` entries in list `listId` beyond the limits; a new list (no id) beyond its own. */
export function checkLimits(
  overview: AccessListsOverview,
  zone: number,
  listId: number | undefined,
  entries: number,
): void {
  if (listId === undefined) checkListLimit(overview, zone);
  const limit = limitOf(overview.customEntryLimit);
  if (limit === undefined) return;
  const total = entriesOutside(overview, listId) + entries;
  if (total <= limit) return;
  throw new PlanNotSufficientError(
    `cannot ${listId === undefined ? 'create' : 'update'} the access list on shield zone ${zone}: with its ${entries} entries the zone's custom lists would hold ${total} entries, and the zone's plan allows ${limit} (customEntryLimit); upgrade the plan or remove entries`,
  );
}

function checkListLimit(overview: AccessListsOverview, zone: number): void {
  const limit = limitOf(overview.customListLimit);
  const count = overview.customListCount ?? (overview.customLists ?? []).length;
  if (limit !== undefined && count >= limit) {
    throw new PlanNotSufficientError(
      `cannot create the access list on shield zone ${zone}: the zone has ${count} custom lists and its plan allows ${limit} (customListLimit); upgrade the plan or remove a list`,
    );
  }
}
