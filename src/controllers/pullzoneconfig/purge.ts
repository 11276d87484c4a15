/**
 * Cache purge on demand. Setting the annotation `<group>/purge-requested-at` to a new
 * value asks for one purge: of `spec.purge.urls` when listed (a trailing `*` purges a prefix;
 * a path starting with `/` is taken on the zone's CDN hostname), else of the whole zone. The
 * handled value is recorded in `status.purge.requestedAt`, so the same request is never sent
 * again by a later poll or by a restarted operator (it reads the value back from status).
 *
 * The one gap: if the operator dies after the platform accepted the purge and before the
 * status write, the next pass purges again. A purge is harmless to repeat; it is never lost.
 */
import { groupKey } from '../../api-group.js';
import type { CdnClient } from '../../cdn/client.js';
import type { FieldDiff } from '../../runtime/types.js';

/** Any new value of this annotation requests one purge. */
export const PURGE_ANNOTATION = groupKey('purge-requested-at');

/** `spec.purge`. */
export interface PurgeSpec {
  /** URLs or paths to purge instead of the whole zone. */
  urls?: string[];
}

/** `status.purge`: the last purge request handled. */
export interface PurgeStatus {
  /** The annotation value this purge answered. */
  requestedAt: string;
  /** When the platform accepted the purge (RFC 3339). */
  completedAt: string;
  /** `Zone` (whole zone) or the number of URLs purged. */
  scope: string;
}

interface PurgeTarget {
  metadata: { annotations?: Record<string, string> };
  spec?: { purge?: PurgeSpec };
  status?: { purge?: PurgeStatus };
}

/** The purge request not handled yet, or undefined. */
export function pendingPurge(obj: PurgeTarget): string | undefined {
  const requested = obj.metadata.annotations?.[PURGE_ANNOTATION];
  if (requested === undefined || requested === '') return undefined;
  return requested === obj.status?.purge?.requestedAt ? undefined : requested;
}

/** The plan entry of a pending purge. */
export function purgeDiff(obj: PurgeTarget): FieldDiff[] {
  const requested = pendingPurge(obj);
  if (requested === undefined) return [];
  return [
    {
      field: 'purge',
      live: obj.status?.purge?.requestedAt ?? '<none>',
      desired: `${requested} (${describeScope(obj.spec?.purge)})`,
    },
  ];
}

function describeScope(spec: PurgeSpec | undefined): string {
  const n = spec?.urls?.length ?? 0;
  return n === 0 ? 'whole zone' : `${n} URL(s)`;
}

/** An absolute URL for a spec entry: paths are taken on the zone's CDN hostname. */
export function absoluteUrl(entry: string, cdnHostname: string | undefined): string {
  if (!entry.startsWith('/')) return entry;
  if (!cdnHostname) throw new Error(`cannot purge ${entry}: the zone has no CDN hostname`);
  return `https://${cdnHostname}${entry}`;
}

/**
 * Sends the pending purge (if any) and returns the status that records it. Every URL is
 * purged in order; a failure throws, and the whole request is retried by the next pass.
 */
export async function runPurge(
  client: CdnClient,
  obj: PurgeTarget,
  zone: { id: number; cdnHostname: string | undefined },
  now: Date,
  signal: AbortSignal,
): Promise<PurgeStatus | undefined> {
  const requested = pendingPurge(obj);
  if (requested === undefined) return undefined;
  const urls = obj.spec?.purge?.urls ?? [];
  if (urls.length === 0) await client.purgePullZone(zone.id, undefined, { signal });
  for (const entry of urls) {
    await client.purgeUrl(absoluteUrl(entry, zone.cdnHostname), {}, { signal });
  }
  return {
    requestedAt: requested,
    completedAt: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    scope: urls.length === 0 ? 'Zone' : `${urls.length} URL(s)`,
  };
}
