/**
 * Cache purge on demand, bounded per object. Setting the annotation
 * `<group>/purge-requested-at` to a new value asks for one purge: of `spec.purge.urls` (a
 * trailing `*` purges a prefix; a path starting with `/` is taken on the zone's CDN hostname)
 * and `spec.purge.cacheTags` (one zone purge per tag) when either is listed, else of the whole
 * zone. The handled value is recorded in
 * `status.purge.lastRequest`, so the same request is never sent again by a later poll or by a
 * restarted operator (it reads the value back from status).
 *
 * The bound (issue 28: a tenant bumping the annotation must not flood the shared account):
 * - at most one purge request starts per object every {@link PURGE_MIN_INTERVAL_MS}, counted
 *   from the start of the previous one (`status.purge.startTime`). A request made sooner is
 *   deferred: `status.purge.scheduledTime` says when it goes, a `PurgeDeferred` event says
 *   why, and the pass is requeued for that time. Requests made meanwhile are merged: the value
 *   current at that time is the one sent and recorded;
 * - at most {@link PURGE_URLS_PER_PASS} URL or cache tag purges per pass (URLs first, then
 *   tags): a longer list (the CRD allows 100 entries in both lists together) continues in the
 *   next passes ({@link PURGE_CONTINUE_MS} apart, `status.purge.inProgressRequest` and `entriesPurged`
 *   record where), so a purge never holds a platform slot for 100 calls;
 * - the annotation change is queued in the normal lane, like a create, not in the high lane
 *   of changes (runtime/enqueue-rules.ts), and continuations with the drift checks.
 * So per object and minute: at most one whole-zone purge or 100 URL and cache tag purges.
 *
 * The one gap: if the operator dies after the platform accepted a purge and before the status
 * write, the next pass purges again (at most one pass's worth). A purge is harmless to repeat;
 * it is never lost.
 */
import { groupKey } from '../../api-group.js';
import type { CdnClient } from '../../cdn/client.js';
import type { FieldDiff, KindEvent } from '../../runtime/types.js';

/** Any new value of this annotation requests one purge. */
export const PURGE_ANNOTATION = groupKey('purge-requested-at');
/** Minimum time between the starts of two purge requests of one object. */
export const PURGE_MIN_INTERVAL_MS = 60_000;
/** URL and cache tag purges one pass sends at most; a longer list continues in the next passes. */
export const PURGE_URLS_PER_PASS = 20;
/** Delay before the next pass of an unfinished URL purge. */
export const PURGE_CONTINUE_MS = 1_000;
/** Event reason of a purge request that waits for the minimum interval. */
export const PurgeDeferred = 'PurgeDeferred';

/** `spec.purge`. */
export interface PurgeSpec {
  /** URLs or paths to purge instead of the whole zone. */
  urls?: string[];
  /** Cache tags to purge instead of the whole zone (one zone purge per tag). */
  cacheTags?: string[];
}

/** `status.purge`: the last purge request handled, and the one under way or deferred. */
export interface PurgeStatus {
  /** The annotation value the last completed purge answered. */
  lastRequest?: string;
  /** When the platform accepted the last purge call of that request (RFC 3339). */
  completionTime?: string;
  /** `Zone` (whole zone), or the number of URLs and cache tags purged. */
  scope?: string;
  /** When the latest purge request started (RFC 3339): the next may start an interval later. */
  startTime?: string;
  /** The annotation value of a URL or cache tag purge still being sent over several passes. */
  inProgressRequest?: string;
  /** Entries of `inProgressRequest` purged so far (its URLs first, then its cache tags). */
  entriesPurged?: number;
  /** A newer request waits for the minimum interval: it is sent at this time (RFC 3339). */
  scheduledTime?: string;
}

interface PurgeTarget {
  metadata: { annotations?: Record<string, string> };
  spec?: { purge?: PurgeSpec };
  status?: { purge?: PurgeStatus };
}

/** What a pass does about purges. */
export type PurgePlan =
  | { kind: 'none' }
  /** Send `value`'s purge, from entry index `from` (0 for a new request). */
  | { kind: 'send'; value: string; from: number }
  /** `value` waits for the interval until `until`. */
  | { kind: 'deferred'; value: string; until: Date };

/** RFC 3339 without milliseconds. */
function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The annotation value asked for and not handled yet, or undefined. */
function requestedValue(obj: PurgeTarget): string | undefined {
  const requested = obj.metadata.annotations?.[PURGE_ANNOTATION];
  if (requested === undefined || requested === '') return undefined;
  return requested === obj.status?.purge?.lastRequest ? undefined : requested;
}

/** The purge request not handled yet (under way or asked for), or undefined. */
export function pendingPurge(obj: PurgeTarget): string | undefined {
  return obj.status?.purge?.inProgressRequest ?? requestedValue(obj);
}

/** When the previous purge request started (objects of older versions: when it completed). */
function lastStart(status: PurgeStatus | undefined): number | undefined {
  const t = Date.parse(status?.startTime ?? status?.completionTime ?? '');
  return Number.isNaN(t) ? undefined : t;
}

/** What this pass does about purges at `now` (see the module comment). */
export function planPurge(obj: PurgeTarget, now: Date): PurgePlan {
  const status = obj.status?.purge;
  if (status?.inProgressRequest !== undefined)
    return { kind: 'send', value: status.inProgressRequest, from: status.entriesPurged ?? 0 };
  const value = requestedValue(obj);
  if (value === undefined) return { kind: 'none' };
  const started = lastStart(status);
  const elapsed = started === undefined ? Infinity : now.getTime() - started;
  // A clock that went backwards (elapsed < 0) never blocks purges for longer than it jumped.
  if (elapsed >= 0 && elapsed < PURGE_MIN_INTERVAL_MS)
    return { kind: 'deferred', value, until: new Date(started! + PURGE_MIN_INTERVAL_MS) };
  return { kind: 'send', value, from: 0 };
}

/** One entry of a listed purge: a URL (or path) or a cache tag. */
export type PurgeEntry = { url: string } | { cacheTag: string };

/** The entries of a listed purge in the order they are sent: URLs, then cache tags. */
export function purgeEntries(obj: PurgeTarget): PurgeEntry[] {
  const purge = obj.spec?.purge;
  return [
    ...(purge?.urls ?? []).map((url) => ({ url })),
    ...(purge?.cacheTags ?? []).map((cacheTag) => ({ cacheTag })),
  ];
}

/** `N URL(s)`, `N cache tag(s)` or both: what a listed purge covers. */
function describeEntries(entries: readonly PurgeEntry[]): string {
  const urls = entries.filter((e) => 'url' in e).length;
  const tags = entries.length - urls;
  const parts = [
    ...(urls > 0 ? [`${urls} URL(s)`] : []),
    ...(tags > 0 ? [`${tags} cache tag(s)`] : []),
  ];
  return parts.join(', ');
}

/** The plan entry of a purge this pass sends (a deferred one is not a pending change). */
export function purgeDiff(obj: PurgeTarget, plan: PurgePlan): FieldDiff[] {
  if (plan.kind !== 'send') return [];
  const entries = purgeEntries(obj);
  const n = entries.length;
  const scope = n === 0 ? 'whole zone' : `${n - plan.from} of ${describeEntries(entries)} left`;
  return [
    {
      field: 'purge',
      live: obj.status?.purge?.lastRequest ?? '<none>',
      desired: `${plan.value} (${scope})`,
    },
  ];
}

/** What observe reports about purges: status, when to look again, an event. */
export interface PurgeObservation {
  status?: PurgeStatus;
  requeueAfterMs?: number;
  events?: KindEvent[];
}

/**
 * The observed side of a plan: a deferred request is recorded in `status.purge.scheduledTime`
 * with an event and a requeue at that time; an unfinished URL purge or a newer request behind
 * the one under way asks for the next pass in time.
 */
export function observePurge(obj: PurgeTarget, plan: PurgePlan, now: Date): PurgeObservation {
  const { scheduledTime: _stale, ...status } = obj.status?.purge ?? {};
  if (plan.kind === 'deferred') {
    const until = rfc3339(plan.until);
    return {
      status: { ...status, scheduledTime: until },
      requeueAfterMs: plan.until.getTime() - now.getTime(),
      events: [
        {
          type: 'Normal',
          reason: PurgeDeferred,
          message: `Purge request deferred until ${until}: at most one purge per ${PURGE_MIN_INTERVAL_MS / 1000} s per object (requests made meanwhile are merged into one)`,
        },
      ],
    };
  }
  const out: PurgeObservation = obj.status?.purge ? { status } : {};
  if (plan.kind === 'send' && hasMoreAfter(obj, plan)) out.requeueAfterMs = PURGE_CONTINUE_MS;
  return out;
}

/**
 * True when purges remain after this pass sends its share: more entries of this request, or a
 * newer request behind the one under way (its next pass defers or sends it).
 */
function hasMoreAfter(obj: PurgeTarget, plan: { value: string; from: number }): boolean {
  if (purgeEntries(obj).length - plan.from > PURGE_URLS_PER_PASS) return true;
  const newer = requestedValue(obj);
  return newer !== undefined && newer !== plan.value;
}

/** An absolute URL for a spec entry: paths are taken on the zone's CDN hostname. */
export function absoluteUrl(entry: string, cdnHostname: string | undefined): string {
  if (!entry.startsWith('/')) return entry;
  if (!cdnHostname) throw new Error(`cannot purge ${entry}: the zone has no CDN hostname`);
  return `https://${cdnHostname}${entry}`;
}

/** Sends the purge of one entry: `POST /purge?url=` or `POST /pullzone/{id}/purgeCache` with the tag. */
async function purgeEntry(
  client: CdnClient,
  entry: PurgeEntry,
  zone: { id: number; cdnHostname: string | undefined },
  signal: AbortSignal,
): Promise<void> {
  if ('url' in entry) {
    await client.purgeUrl(absoluteUrl(entry.url, zone.cdnHostname), {}, { signal });
    return;
  }
  await client.purgePullZone(zone.id, entry.cacheTag, { signal });
}

/**
 * Sends this pass's share of the planned purge (if any) and returns the status that records
 * it: the whole zone, or up to {@link PURGE_URLS_PER_PASS} URLs and cache tags in order. A
 * failure throws; the next pass resends the same share (a purge is harmless to repeat).
 */
export async function runPurge(
  client: CdnClient,
  obj: PurgeTarget,
  plan: PurgePlan,
  zone: { id: number; cdnHostname: string | undefined },
  now: Date,
  signal: AbortSignal,
): Promise<PurgeStatus | undefined> {
  if (plan.kind !== 'send') return undefined;
  const previous = obj.status?.purge ?? {};
  const { inProgressRequest: _i, entriesPurged: _u, scheduledTime: _d, ...done } = previous;
  const startTime = plan.from === 0 ? rfc3339(now) : (previous.startTime ?? rfc3339(now));
  const entries = purgeEntries(obj);
  if (entries.length === 0) {
    await client.purgePullZone(zone.id, undefined, { signal });
    return { lastRequest: plan.value, completionTime: rfc3339(now), scope: 'Zone', startTime };
  }
  const share = entries.slice(plan.from, plan.from + PURGE_URLS_PER_PASS);
  for (const entry of share) await purgeEntry(client, entry, zone, signal);
  const purged = plan.from + share.length;
  if (purged < entries.length)
    return { ...done, startTime, inProgressRequest: plan.value, entriesPurged: purged };
  return {
    lastRequest: plan.value,
    completionTime: rfc3339(now),
    scope: describeEntries(entries),
    startTime,
  };
}
