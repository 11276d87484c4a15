/**
 * The VideoLibrary kind (`/videolibrary`) on the kit (kit/crud-kind.ts): its fields (fields.ts),
 * its identity (library names are not unique: a create goes out under the provisional name and
 * the update of the same pass renames it; a lost create is recovered only by that name) and the
 * hooks beyond plain CRUD:
 *
 * - a record is the library read with what status shows of its pull zone and storage zone
 *   (three reads, nothing written): their hostnames and the pull zone's token authentication,
 *   which the library's update model switches;
 * - `compare`: the watermark image (watermark.ts: uploaded when its source's digest differs
 *   from the one status records) and the key resets asked by annotation (keys.ts);
 * - the update sends the library's members in one call, the referrer lists one hostname per
 *   call (referrers.ts), the watermark image, then the key resets, and reads back;
 * - `details`: the API keys for the outputs Secret (keys.ts).
 *
 * Deleting the library deletes its pull zone and storage zone on the platform (with
 * `deletionPolicy: Orphan` nothing is deleted).
 */
import type { CdnClient } from '../../cdn/client.js';
import type { PullZone } from '../../cdn/types.js';
import type {
  VideoLibrary as LibraryRecord,
  VideoLibraryKey,
} from '../../cdn/video-library-types.js';
import { isNotFound } from '../shared/not-found.js';
import type { ManagedKind } from '../../runtime/types.js';
import type { Connection } from '../kit/connector.js';
import type { CrudResource } from '../kit/crud-external.js';
import { crudKind } from '../kit/crud-kind.js';
import type { ControllerDeps } from '../shared/deps.js';
import { VIDEO_LIBRARY_FIELDS as FIELDS } from './fields.js';
import {
  API_KEY_SECRET,
  apiKeyDetails,
  keyResetStatus,
  pendingResets,
  resetDiffs,
} from './keys.js';
import { sendReferrers, splitReferrers } from './referrers.js';
import { VIDEO_LIBRARY_NAMES, type KeyResetStatus, type VideoLibrary } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';
import type { FieldsDiff } from '../kit/fields.js';
import { compareWatermark, watermarkStatusOf, WATERMARK_MEMBER } from './watermark.js';
import { watermarkReferences, type SourceReader, type SourcedImage } from './watermark-source.js';

/** What status and the comparison read of the library's pull zone. */
export interface LibraryPullZone {
  ZoneSecurityEnabled?: boolean;
  ZoneSecurityIncludeHashRemoteIP?: boolean;
  hostname?: string;
}

/** A library as observe reads it: the record and the parts of its two zones status shows. */
export type LibraryState = LibraryRecord & {
  pullZone?: LibraryPullZone;
  storageZone?: { hostname?: string };
};

/** `undefined` for a zone the platform no longer has (status then leaves it out). */
async function orGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** What status and the comparison read of a pull zone. */
function pullZonePart(zone: PullZone): LibraryPullZone {
  const system = zone.Hostnames?.find((h) => h.IsSystemHostname === true)?.Value;
  return {
    ZoneSecurityEnabled: zone.ZoneSecurityEnabled,
    ZoneSecurityIncludeHashRemoteIP: zone.ZoneSecurityIncludeHashRemoteIP,
    ...(system ? { hostname: system } : {}),
  };
}

/** The library `id` with its pull zone's and storage zone's parts (reads only). */
export async function readLibrary(
  client: CdnClient,
  id: number,
  signal: AbortSignal,
): Promise<LibraryState> {
  const library = await client.getVideoLibrary(id, { signal });
  const zoneId = Number(library.PullZoneId ?? 0);
  const storageId = Number(library.StorageZoneId ?? 0);
  const [zone, storage] = await Promise.all([
    zoneId > 0 ? orGone(client.getPullZone(zoneId, { signal })) : undefined,
    storageId > 0 ? orGone(client.getStorageZone(storageId, { signal })) : undefined,
  ]);
  const storageHostname = storage?.StorageHostname;
  return {
    ...library,
    ...(zone ? { pullZone: pullZonePart(zone) } : {}),
    ...(storageHostname ? { storageZone: { hostname: storageHostname } } : {}),
  };
}

/** The update's calls: the library's members, the referrers, the watermark, the key resets. */
async function sendUpdate(
  client: CdnClient,
  id: number,
  body: Record<string, unknown>,
  record: LibraryState,
  signal: AbortSignal,
): Promise<void> {
  const { resetKeys, [WATERMARK_MEMBER]: watermark, ...members } = body;
  const { rest, changes } = splitReferrers(members, record);
  if (Object.keys(rest).length > 0) await client.updateVideoLibrary(id, rest, { signal });
  await sendReferrers(client, id, changes, signal);
  if (watermark !== undefined) {
    const image = watermark as SourcedImage | null;
    const upload = image ? { data: image.data, contentType: image.contentType } : null;
    await client.setVideoLibraryWatermark(id, upload, { signal });
  }
  for (const key of Object.keys(resetKeys ?? {}) as VideoLibraryKey[])
    await client.resetVideoLibraryKey(id, key, { signal });
}

/** The status members beyond the table. */
function statusOf(
  record: LibraryState,
  obj: VideoLibrary,
  sent?: Record<string, unknown>,
): Record<string, unknown> {
  const keyReset = keyResetStatus(obj, sent?.resetKeys as KeyResetStatus | undefined);
  return {
    ...watermarkStatusOf(obj, record, sent),
    ...(record.PullZoneId ? { pullZoneId: record.PullZoneId } : {}),
    ...(record.pullZone?.hostname ? { pullZoneHostname: record.pullZone.hostname } : {}),
    ...(record.StorageZoneId ? { storageZoneId: record.StorageZoneId } : {}),
    ...(record.storageZone?.hostname ? { storageZoneHostname: record.storageZone.hostname } : {}),
    ...(keyReset ? { keyReset } : {}),
  };
}

/** The key resets asked by annotation, added to `diff` (keys.ts). */
function withResets(obj: VideoLibrary, diff: FieldsDiff): FieldsDiff {
  const pending = pendingResets(obj);
  if (Object.keys(pending).length === 0) return diff;
  return {
    ...diff,
    diffs: [...diff.diffs, ...resetDiffs(obj, pending)],
    update: { ...diff.update, resetKeys: pending },
  };
}

/**
 * The library of one connection; `reader` reads the watermark image's source (without one, as
 * in `cdnctl diff`, the image is planned from the library's HasWatermark alone).
 */
function resource(
  conn: Connection,
  _obj?: VideoLibrary,
  reader?: SourceReader,
): CrudResource<VideoLibrary, LibraryState> {
  const { client, account } = conn;
  return {
    idField: 'libraryId',
    identity: {
      what: 'video library',
      claimType: VIDEO_LIBRARY_NAMES.kind,
      names: VIDEO_LIBRARY_NAMES.platformNames,
      nameOf: (obj) => obj.spec?.name ?? obj.metadata.name,
      read: (id, signal) => readLibrary(client, Number(id), signal),
      search: (name, signal) => client.listVideoLibraries({ search: name }, { signal }),
      // A match is read again by id, with its zones.
      summaries: true,
      idOf: (r) => String(r.Id),
      recordNameOf: (r) => r.Name ?? '',
    },
    fields: FIELDS,
    nameApi: 'Name',
    account,
    api: {
      create: (body, signal) => client.addVideoLibrary(body as { Name: string }, { signal }),
      update: (id, body, signal, record) => sendUpdate(client, Number(id), body, record, signal),
      remove: (id, signal) => client.deleteVideoLibrary(Number(id), { signal }),
    },
    readBack: true,
    hooks: {
      compare: async (obj, record, diff) =>
        withResets(obj, await compareWatermark(obj, record, diff, reader)),
      status: (record, obj, sent) => statusOf(record, obj, sent),
      details: (record) => apiKeyDetails(record, { pullZone: record.pullZone?.hostname }),
    },
  };
}

/** Builds the VideoLibrary ManagedKind. */
export function createVideoLibraryKind(deps: ControllerDeps): ManagedKind<VideoLibrary> {
  return crudKind<VideoLibrary, LibraryState>(deps, {
    names: VIDEO_LIBRARY_NAMES,
    idField: 'libraryId',
    fields: FIELDS,
    specPaths: { resetKeys: 'metadata.annotations', [WATERMARK_MEMBER]: 'spec.watermark.image' },
    resource: (conn, obj, ctx) =>
      resource(conn, obj, { ctx, ...(deps.disableUrlSources ? { disableUrlSources: true } : {}) }),
    references: watermarkReferences,
    connectionSecret: API_KEY_SECRET,
  });
}

export { resource as videoLibraryResource };
export type { VideoLibrary } from './types.js';

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createVideoLibraryKind;
