/**
 * Pure comparison of a ShieldAccessList's desired state with the live list and its
 * configuration: the plan entries and the (at most) two writes that fix them, each carrying only
 * what differs: the list `PATCH` (`name`, `content` when the entry set differs) and the
 * configuration `PATCH` (`isEnabled`, `action`). The description is not compared: the platform
 * sets it at create and offers no call to change it.
 */
import { accessListContent, accessListEntries } from '../../cdn/shield-access-lists.js';
import type {
  AccessListConfiguration,
  AccessListDetails,
  CustomAccessList,
  CustomAccessListUpdate,
} from '../../cdn/security-types.js';
import type { FieldDiff } from '../../runtime/types.js';
import { renderValue } from '../shared/plan.js';
import { fromWire } from '../shieldrule-common/enums.js';
import { ACCESS_LIST_ACTION } from './enums.js';
import { normalizeEntries, sameEntries } from './entries.js';
import type { DesiredAccessList } from './mapping.js';

/** Result of {@link diffAccessList}. */
export interface AccessListDiff {
  diffs: FieldDiff[];
  /** Empty when the name and entries are in sync. */
  listPatch: CustomAccessListUpdate;
  /** Empty when the configuration is in sync. */
  configPatch: AccessListConfiguration;
}

/** How many entries differ, for the plan line (a list can be long). */
function entriesSummary(want: readonly string[], live: readonly string[]): string {
  const have = new Set(live);
  const wanted = new Set(want);
  const added = want.filter((e) => !have.has(e));
  const removed = live.filter((e) => !wanted.has(e));
  const sample = (xs: string[]): string =>
    xs.slice(0, 3).join(', ') + (xs.length > 3 ? ', ...' : '');
  const parts = [
    ...(added.length > 0 ? [`+${added.length} (${sample(added)})`] : []),
    ...(removed.length > 0 ? [`-${removed.length} (${sample(removed)})`] : []),
  ];
  return `${want.length} entries: ${parts.join(' ')}`;
}

function diffList(want: DesiredAccessList, list: CustomAccessList, out: AccessListDiff): void {
  if (want.name !== undefined && want.name !== list.name) {
    out.listPatch.name = want.name;
    out.diffs.push({ field: 'name', live: renderValue(list.name), desired: want.name });
  }
  const live = normalizeEntries(accessListEntries(list.content));
  if (!sameEntries(want.entries, live)) {
    out.listPatch.content = accessListContent(want.entries);
    out.diffs.push({
      field: 'content',
      live: `${live.length} entries`,
      desired: entriesSummary(want.entries, live),
    });
  }
}

function renderAction(v: unknown): string {
  return fromWire(ACCESS_LIST_ACTION, v) ?? renderValue(v);
}

function diffConfiguration(
  want: DesiredAccessList,
  details: AccessListDetails,
  out: AccessListDiff,
): void {
  if (want.enabled !== details.isEnabled) {
    out.configPatch.isEnabled = want.enabled;
    out.diffs.push({
      field: 'isEnabled',
      live: renderValue(details.isEnabled),
      desired: renderValue(want.enabled),
    });
  }
  if (want.action !== undefined && want.action !== details.action) {
    out.configPatch.action = want.action as AccessListConfiguration['action'];
    out.diffs.push({
      field: 'action',
      live: renderAction(details.action),
      desired: renderAction(want.action),
    });
  }
}

/** Compares `want` with the live list and its configuration (see the module comment). */
export function diffAccessList(
  want: DesiredAccessList,
  list: CustomAccessList,
  details: AccessListDetails,
): AccessListDiff {
  const out: AccessListDiff = { diffs: [], listPatch: {}, configPatch: {} };
  diffList(want, list, out);
  diffConfiguration(want, details, out);
  return out;
}
