/**
 * The files of the storage zones, kept with the state (the `storageFiles` collection, so they
 * are saved in the state file and emptied by a reset): one record per file, keyed by zone id and
 * path, the content base64-encoded. Directories are not stored: like on the platform, a path's
 * directories exist while a file lies under them, and an upload creates them.
 *
 * Objects are answered in the platform's StorageObject shape (the vendor's clients and the
 * platform's storage libraries read it): `Path` is `/<zone>/<directory>/`, dates are UTC without
 * a zone designator and with milliseconds, `Checksum` the upper-case hex SHA-256 of the content.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { SimState, StoredStorageZone } from '../state.js';
import type { JsonObject } from '../types.js';

/** One stored file. */
export interface StoredFile extends JsonObject {
  storageZoneId: number;
  /** Path inside the zone, without a leading slash: `index.html`, `img/a.png`. */
  path: string;
  guid: string;
  contentBase64: string;
  contentType: string;
  checksum: string;
  dateCreated: string;
  lastChanged: string;
}

/** The platform's timestamp form: `2024-05-01T12:30:00.123`. */
export function storageTime(date = new Date()): string {
  return date.toISOString().slice(0, 23);
}

/** Upper-case hex SHA-256, as the platform's `Checksum` header and member spell it. */
export function checksumOf(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex').toUpperCase();
}

function keyOf(zoneId: number, path: string): string {
  return `${zoneId}:${path}`;
}

function filesOf(state: SimState): Map<string, JsonObject> {
  return state.collections.of('storageFiles');
}

/** The zone's files, in path order. */
export function zoneFiles(state: SimState, zoneId: number): StoredFile[] {
  return [...filesOf(state).values()]
    .filter((f) => f.storageZoneId === zoneId)
    .map((f) => f as StoredFile)
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** One file, or undefined. */
export function findFile(state: SimState, zoneId: number, path: string): StoredFile | undefined {
  return filesOf(state).get(keyOf(zoneId, path)) as StoredFile | undefined;
}

/** Stores (or replaces) a file; a replaced file keeps its Guid and creation date. */
export function putFile(
  state: SimState,
  zoneId: number,
  path: string,
  content: Buffer,
  contentType: string,
): StoredFile {
  const old = findFile(state, zoneId, path);
  const now = storageTime();
  const file: StoredFile = {
    storageZoneId: zoneId,
    path,
    guid: old?.guid ?? randomUUID(),
    contentBase64: content.toString('base64'),
    contentType,
    checksum: checksumOf(content),
    dateCreated: old?.dateCreated ?? now,
    lastChanged: now,
  };
  filesOf(state).set(keyOf(zoneId, path), file);
  state.touch();
  return file;
}

/**
 * Deletes a file, or with a directory path (`img/`, `''` for the root) everything under it.
 * Returns how many files went.
 */
export function deletePath(state: SimState, zoneId: number, path: string): number {
  const isDirectory = path === '' || path.endsWith('/');
  const doomed = zoneFiles(state, zoneId).filter((f) =>
    isDirectory ? f.path.startsWith(path) : f.path === path,
  );
  for (const f of doomed) filesOf(state).delete(keyOf(zoneId, f.path));
  if (doomed.length > 0) state.touch();
  return doomed.length;
}

/** Removes every file of a deleted zone. */
export function dropZoneFiles(state: SimState, zoneId: number): void {
  deletePath(state, zoneId, '');
}

/** Files stored and bytes used by a zone (its record's FilesStored and StorageUsed). */
export function zoneUsage(state: SimState, zoneId: number): { files: number; bytes: number } {
  const files = zoneFiles(state, zoneId);
  const bytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.contentBase64, 'base64'), 0);
  return { files: files.length, bytes };
}

function directoryOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash + 1);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/', path.length - 2) + 1).replace(/\/$/, '');
}

/** A stable Guid for a directory (it has no record of its own). */
function directoryGuid(zoneId: number, path: string): string {
  const h = createHash('sha256').update(`${zoneId}/${path}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function baseObject(zone: StoredStorageZone, path: string): JsonObject {
  return {
    StorageZoneName: zone.Name,
    Path: `/${zone.Name}/${directoryOf(path.replace(/\/$/, ''))}`,
    ObjectName: nameOf(path),
    ServerId: 1,
    ArrayNumber: 0,
    UserId: 'sim-user',
    StorageZoneId: zone.Id,
    ReplicatedZones: ((zone.ReplicationRegions as string[] | undefined) ?? []).join(','),
  };
}

/** A file as a StorageObject. */
export function fileObject(zone: StoredStorageZone, file: StoredFile): JsonObject {
  return {
    Guid: file.guid,
    ...baseObject(zone, file.path),
    Length: Buffer.byteLength(file.contentBase64, 'base64'),
    LastChanged: file.lastChanged,
    IsDirectory: false,
    ContentType: file.contentType,
    DateCreated: file.dateCreated,
    Checksum: file.checksum,
  };
}

/** A directory (`img/`) as a StorageObject, dated by its newest file. */
function directoryObject(zone: StoredStorageZone, path: string, files: StoredFile[]): JsonObject {
  const under = files.filter((f) => f.path.startsWith(path));
  const newest = under.reduce((t, f) => (f.lastChanged > t ? f.lastChanged : t), '');
  const oldest = under.reduce((t, f) => (f.dateCreated < t ? f.dateCreated : t), newest);
  return {
    Guid: directoryGuid(zone.Id, path),
    ...baseObject(zone, path),
    Length: 0,
    LastChanged: newest,
    IsDirectory: true,
    ContentType: '',
    DateCreated: oldest,
    Checksum: null,
  };
}

/** True when some file lies under the directory path (`img/`; `''` is the root, always there). */
export function directoryExists(state: SimState, zoneId: number, path: string): boolean {
  return path === '' || zoneFiles(state, zoneId).some((f) => f.path.startsWith(path));
}

/** The objects directly in a directory (`''` for the root): its subdirectories, then its files. */
export function listDirectory(
  state: SimState,
  zone: StoredStorageZone,
  path: string,
): JsonObject[] {
  const files = zoneFiles(state, zone.Id).filter((f) => f.path.startsWith(path));
  const subdirectories = new Set<string>();
  const direct: StoredFile[] = [];
  for (const f of files) {
    const rest = f.path.slice(path.length);
    const slash = rest.indexOf('/');
    if (slash < 0) direct.push(f);
    else subdirectories.add(`${path}${rest.slice(0, slash + 1)}`);
  }
  return [
    ...[...subdirectories].sort().map((d) => directoryObject(zone, d, files)),
    ...direct.map((f) => fileObject(zone, f)),
  ];
}

/** The object at a path: a file, or a directory (`img/`) some file lies under. */
export function describePath(
  state: SimState,
  zone: StoredStorageZone,
  path: string,
): JsonObject | undefined {
  if (path !== '' && !path.endsWith('/')) {
    const file = findFile(state, zone.Id, path);
    return file ? fileObject(zone, file) : undefined;
  }
  if (path === '' || !directoryExists(state, zone.Id, path)) return undefined;
  return directoryObject(zone, path, zoneFiles(state, zone.Id));
}
