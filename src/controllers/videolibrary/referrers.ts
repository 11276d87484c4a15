/**
 * The library's referrer lists: the update model has no member for them, so a difference the
 * field table finds (`AllowedReferrers`, `BlockedReferrers` in the update body) is sent as one
 * add or remove call per hostname, against the lists observe saw; the rest of the body goes to
 * the library's update.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { VideoLibraryReferrerList } from '../../cdn/video-library-types.js';

/** Update-body member of each list. */
const LISTS: Record<VideoLibraryReferrerList, 'AllowedReferrers' | 'BlockedReferrers'> = {
  allowed: 'AllowedReferrers',
  blocked: 'BlockedReferrers',
};

/** One referrer call. */
export interface ReferrerChange {
  list: VideoLibraryReferrerList;
  action: 'add' | 'remove';
  hostname: string;
}

/** The update body without the lists, and the calls that bring the lists from `live` to it. */
export function splitReferrers(
  body: Record<string, unknown>,
  live: Partial<Record<'AllowedReferrers' | 'BlockedReferrers', string[] | null>>,
): { rest: Record<string, unknown>; changes: ReferrerChange[] } {
  const rest = { ...body };
  const changes: ReferrerChange[] = [];
  for (const [list, member] of Object.entries(LISTS) as [VideoLibraryReferrerList, string][]) {
    const wanted = rest[member] as string[] | undefined;
    delete rest[member];
    if (wanted === undefined) continue;
    const have = live[member as keyof typeof live] ?? [];
    for (const hostname of wanted.filter((h) => !have.includes(h)))
      changes.push({ list, action: 'add', hostname });
    for (const hostname of have.filter((h) => !wanted.includes(h)))
      changes.push({ list, action: 'remove', hostname });
  }
  return { rest, changes };
}

/** Sends the referrer calls one by one (additions first, so a list is never briefly empty). */
export async function sendReferrers(
  client: CdnClient,
  id: number,
  changes: readonly ReferrerChange[],
  signal: AbortSignal,
): Promise<void> {
  const ordered = [
    ...changes.filter((c) => c.action === 'add'),
    ...changes.filter((c) => c.action === 'remove'),
  ];
  for (const change of ordered) await client.changeVideoLibraryReferrer(id, change, { signal });
}
