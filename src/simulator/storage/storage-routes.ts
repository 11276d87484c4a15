/**
 * The storage endpoint's requests, as the platform answers them (its Edge Storage API, used by
 * the vendor's Terraform provider and the platform's storage libraries):
 *
 * - `PUT /<zone>/<path>`: upload (raw body; an optional `Checksum` header, the upper-case hex
 *   SHA-256, must match: 400 otherwise); 201. The content type is the `Override-Content-Type`
 *   header, else the request's own (unless `application/octet-stream`), else the extension's.
 * - `GET /<zone>/<path>`: the file's bytes; `GET /<zone>/<dir>/` the directory's objects.
 * - `DESCRIBE /<zone>/<path>`: the file's (or directory's) StorageObject.
 * - `DELETE /<zone>/<path>`: the file, or with a trailing slash the directory and everything
 *   under it; the root only with `allowRootDelete=true` (query or header); 404 when nothing is
 *   there.
 *
 * Authentication is the zone's password in the `AccessKey` header (the read-only password
 * allows GET and DESCRIBE); a wrong key, an unknown zone or the host of another region than the
 * zone's is 401. Bodies are `{HttpCode, Message}` like the platform's.
 */
import type { SimState, StoredStorageZone } from '../state.js';
import { regionOfHost } from './storage-host.js';
import {
  checksumOf,
  deletePath,
  describePath,
  findFile,
  listDirectory,
  putFile,
} from './storage-files.js';

/** A request to the storage endpoint, body already read. */
export interface StorageRequest {
  method: string;
  /** Raw URL path, percent-encoded. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** What the endpoint answers. */
export interface StorageResponse {
  status: number;
  body: Buffer | string;
  contentType: string;
}

type Access = 'read' | 'write';

const EXTENSION_TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'application/javascript',
  json: 'application/json',
  txt: 'text/plain',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
};

function message(status: number, text: string): StorageResponse {
  return {
    status,
    body: JSON.stringify({ HttpCode: status, Message: text }),
    contentType: 'application/json',
  };
}

function json(status: number, value: unknown): StorageResponse {
  return { status, body: JSON.stringify(value), contentType: 'application/json' };
}

function header(req: StorageRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Zone name and the path inside it (`''` = root, a trailing slash = a directory). */
function splitPath(raw: string): { zoneName: string; path: string } {
  const segments = raw.split('/').filter((s, i, all) => s !== '' || i === all.length - 1);
  const [zoneName = '', ...rest] = segments.map(safeDecode);
  return { zoneName, path: rest.join('/').replace(/^\/+/, '') };
}

function findZone(state: SimState, name: string): StoredStorageZone | undefined {
  const wanted = name.toLowerCase();
  return [...state.storageZones.values()].find((z) => z.Name.toLowerCase() === wanted);
}

/** The access the request's key gives to the zone, or undefined. */
function accessOf(req: StorageRequest, zone: StoredStorageZone, base: string): Access | undefined {
  const region = regionOfHost(base, header(req, 'host'));
  if (region !== undefined && region !== ((zone.Region as string | undefined) ?? 'DE'))
    return undefined;
  const key = header(req, 'accesskey');
  if (key === undefined || key === '') return undefined;
  if (key === zone.Password) return 'write';
  return key === zone.ReadOnlyPassword ? 'read' : undefined;
}

/** The content type of a file path by its extension (`application/octet-stream` if unknown). */
export function contentTypeOfPath(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return EXTENSION_TYPES[ext] ?? 'application/octet-stream';
}

function contentTypeOf(req: StorageRequest, path: string): string {
  const override = header(req, 'override-content-type');
  if (override) return override;
  const sent = header(req, 'content-type');
  if (sent && !sent.startsWith('application/octet-stream')) return sent;
  return contentTypeOfPath(path);
}

function upload(
  state: SimState,
  zone: StoredStorageZone,
  path: string,
  req: StorageRequest,
): StorageResponse {
  if (path === '' || path.endsWith('/'))
    return message(400, 'A file name is required to upload a file');
  const wanted = header(req, 'checksum');
  if (wanted && wanted.toUpperCase() !== checksumOf(req.body))
    return message(400, 'The checksum does not match the uploaded content');
  putFile(state, zone.Id, path, req.body, contentTypeOf(req, path));
  return message(201, 'File uploaded.');
}

function download(state: SimState, zone: StoredStorageZone, path: string): StorageResponse {
  if (path === '' || path.endsWith('/')) return json(200, listDirectory(state, zone, path));
  const file = findFile(state, zone.Id, path);
  if (!file) return message(404, 'Object Not Found');
  return {
    status: 200,
    body: Buffer.from(file.contentBase64, 'base64'),
    contentType: file.contentType,
  };
}

function remove(
  state: SimState,
  zone: StoredStorageZone,
  path: string,
  req: StorageRequest,
): StorageResponse {
  const allowRoot =
    req.query.get('allowRootDelete') === 'true' || header(req, 'allowrootdelete') === 'true';
  if (path === '' && !allowRoot)
    return message(400, 'Deleting the root directory needs allowRootDelete=true');
  return deletePath(state, zone.Id, path) > 0
    ? message(200, 'File deleted successfuly.')
    : message(404, 'Object Not Found');
}

function describe(state: SimState, zone: StoredStorageZone, path: string): StorageResponse {
  const object = describePath(state, zone, path);
  return object ? json(200, object) : message(404, 'Object Not Found');
}

const HANDLERS: Record<
  string,
  (state: SimState, zone: StoredStorageZone, path: string, req: StorageRequest) => StorageResponse
> = {
  PUT: upload,
  GET: (state, zone, path) => download(state, zone, path),
  DESCRIBE: (state, zone, path) => describe(state, zone, path),
  DELETE: remove,
};

/**
 * Answers one storage request against the state. `base` is the storage host name zone records
 * show for DE (the region check of the `Host` header follows it).
 */
export function handleStorage(state: SimState, base: string, req: StorageRequest): StorageResponse {
  const { zoneName, path } = splitPath(req.path);
  const zone = zoneName ? findZone(state, zoneName) : undefined;
  const access = zone ? accessOf(req, zone, base) : undefined;
  if (!zone || !access) return message(401, 'Unauthorized');
  const writes = req.method === 'PUT' || req.method === 'DELETE';
  if (writes && access !== 'write') return message(401, 'Unauthorized');
  const handler = HANDLERS[req.method];
  return handler ? handler(state, zone, path, req) : message(405, `${req.method} is not supported`);
}
