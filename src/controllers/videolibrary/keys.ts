/**
 * The library's API keys: written to an outputs Secret (`spec.outputSecretRef`, the one shape
 * of an output: shared/output-secret.ts) only when the spec names one, and reset on request.
 *
 * A reset is asked by setting an annotation to a new value, like a purge (pullzoneconfig/
 * purge.ts): `<domain>/api-key-reset-requested-at` replaces the API key,
 * `<domain>/read-only-api-key-reset-requested-at` the read-only one. The value handled is
 * recorded in `status.keyReset`, so the same request is never sent again; the read after the
 * reset carries the new key to the Secret. The one gap: if the status write after a reset is
 * lost, the next pass resets once more (the Secret then holds the newer key).
 *
 * The keys are registered as secrets by the client on every read; they are never put in status,
 * a plan, an event or a log (a plan entry shows the annotation values only).
 */
import { groupKey } from '../../api-group.js';
import type {
  VideoLibrary as LibraryRecord,
  VideoLibraryKey,
} from '../../cdn/video-library-types.js';
import type { ConnectionDetails, ConnectionSecret, FieldDiff } from '../../runtime/types.js';
import { outputSecretOf } from '../shared/output-secret.js';
import type { KeyResetStatus, VideoLibrary } from './types.js';

/** Any new value of these annotations asks for one reset of that key. */
export const KEY_RESET_ANNOTATIONS: Readonly<Record<VideoLibraryKey, string>> = {
  apiKey: groupKey('api-key-reset-requested-at'),
  readOnlyApiKey: groupKey('read-only-api-key-reset-requested-at'),
};

/** The outputs Secret of a VideoLibrary: only when `spec.outputSecretRef` names one. */
export const API_KEY_SECRET: ConnectionSecret<VideoLibrary> = outputSecretOf<VideoLibrary>();

/** The resets asked for and not handled yet: key -> annotation value. */
export function pendingResets(obj: VideoLibrary): KeyResetStatus {
  const out: KeyResetStatus = {};
  for (const [key, annotation] of Object.entries(KEY_RESET_ANNOTATIONS) as [
    VideoLibraryKey,
    string,
  ][]) {
    const asked = obj.metadata.annotations?.[annotation];
    if (asked && asked !== obj.status?.keyReset?.[key]) out[key] = asked;
  }
  return out;
}

/** The plan entries of the pending resets (annotation values, never a key). */
export function resetDiffs(obj: VideoLibrary, pending: KeyResetStatus): FieldDiff[] {
  return (Object.entries(pending) as [VideoLibraryKey, string][]).map(([key, value]) => ({
    field: `${key}Reset`,
    live: obj.status?.keyReset?.[key] ?? '<none>',
    desired: value,
  }));
}

/** `status.keyReset`: the handled values, with the resets `sent` just made. */
export function keyResetStatus(
  obj: VideoLibrary,
  sent?: KeyResetStatus,
): KeyResetStatus | undefined {
  const merged = { ...obj.status?.keyReset, ...sent };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** The outputs Secret's data; undefined while the record has no key. */
export function apiKeyDetails(
  record: LibraryRecord,
  hostnames: { pullZone?: string },
): ConnectionDetails | undefined {
  if (!record.ApiKey || record.Id === undefined) return undefined;
  return {
    apiKey: record.ApiKey,
    ...(record.ReadOnlyApiKey ? { readOnlyApiKey: record.ReadOnlyApiKey } : {}),
    libraryId: String(record.Id),
    ...(record.PullZoneId ? { pullZoneId: String(record.PullZoneId) } : {}),
    ...(hostnames.pullZone ? { cdnHostname: hostnames.pullZone } : {}),
  };
}
