/**
 * Where the watermark image comes from (`spec.watermark.image`): one key of a ConfigMap
 * (`binaryData` or `data`) or of a Secret of the object's namespace, read as bytes through the
 * ConnectContext (cached and watched like every referenced Secret: a change re-enqueues the
 * object), or an https URL the operator fetches under the SSRF rules of
 * common/public-https-fetch.ts (refused altogether with `--disable-url-sources`).
 *
 * Every source is held to the client's size limit and must be a PNG, JPEG, GIF or WebP image
 * (told by its first bytes, not by a name or a header). Errors name the field, the object, the
 * size and the limit, never a byte of the image: a Secret's content is no one's to see.
 */
import { MAX_WATERMARK_BYTES, type WatermarkImage } from '../../cdn/video-libraries.js';
import {
  checkFetchableUrl,
  fetchPublicHttps,
  UrlFetchError,
  type PublicFetchOptions,
} from '../../common/public-https-fetch.js';
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';
import type { ConnectContext, ObjectReference } from '../../runtime/types.js';
import { readKeyRefBytes } from '../shared/key-ref.js';
import type { VideoLibrary, WatermarkImageSource, WatermarkSourceKind } from './types.js';

/** The spec field of the image source, as messages name it. */
export const IMAGE_FIELD = 'spec.watermark.image';
/** The whole URL exchange's deadline: an image needs no more, a slow server holds no pass. */
export const URL_FETCH_TIMEOUT_MS = 10_000;

/** The image read from its source, with what status records of it. */
export interface SourcedImage extends WatermarkImage {
  source: WatermarkSourceKind;
  url?: string;
}

/** How the source is read: the context's reader and the operator's URL policy. */
export interface SourceReader {
  ctx: Pick<ConnectContext, 'readBytes'>;
  /** `--disable-url-sources`. */
  disableUrlSources?: boolean;
  /** Options of the URL fetch beyond the limits (tests: a local server's CA and address). */
  fetchOptions?: Pick<PublicFetchOptions, 'allowAddress' | 'ca'>;
}

/** The spec's image source, if any. */
export function imageSourceOf(obj: VideoLibrary): WatermarkImageSource | undefined {
  return obj.spec?.watermark?.image;
}

/** Which kind of source the spec names (undefined: none). */
export function sourceKindOf(
  source: WatermarkImageSource | undefined,
): WatermarkSourceKind | undefined {
  if (source?.configMapKeyRef) return 'ConfigMap';
  if (source?.secretKeyRef) return 'Secret';
  if (source?.url !== undefined) return 'URL';
  return undefined;
}

/** The image's ConfigMap or Secret as a reference: a change to it re-enqueues the object. */
export function watermarkReferences(obj: VideoLibrary): ObjectReference[] {
  const source = imageSourceOf(obj);
  const kind = sourceKindOf(source);
  const name = source?.configMapKeyRef?.name ?? source?.secretKeyRef?.name;
  if (!name || (kind !== 'ConfigMap' && kind !== 'Secret')) return [];
  return [{ apiVersion: 'v1', kind, namespace: obj.metadata.namespace, name }];
}

/** A refusal of the spec: Synced=False InvalidSpec until the spec or the source changes. */
function invalid(why: string): TerminalError {
  return new TerminalError(SyncedReason.InvalidSpec, `cannot use ${IMAGE_FIELD}: ${why}`);
}

/** The media type of a supported image, from its first bytes; undefined for anything else. */
export function imageTypeOf(bytes: Uint8Array): string | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (b.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'image/jpeg';
  const head = b.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  if (
    b.subarray(0, 4).toString('latin1') === 'RIFF' &&
    b.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

/** The image of `bytes` from `where`, or the refusal naming size and limit or the type. */
export function checkImage(
  bytes: Uint8Array,
  where: string,
): { data: Uint8Array; contentType: string } {
  if (bytes.byteLength > MAX_WATERMARK_BYTES)
    throw invalid(
      `${where} is ${bytes.byteLength} bytes, more than the limit of ${MAX_WATERMARK_BYTES} bytes`,
    );
  if (bytes.byteLength === 0) throw invalid(`${where} is empty`);
  const contentType = imageTypeOf(bytes);
  if (!contentType) throw invalid(`${where} is not a PNG, JPEG, GIF or WebP image`);
  return { data: bytes, contentType };
}

/** Reads a ConfigMap or Secret key's bytes (ReferenceNotReady while it is missing). */
async function readKeyImage(
  obj: VideoLibrary,
  reader: SourceReader,
  kind: 'ConfigMap' | 'Secret',
): Promise<SourcedImage> {
  const source = imageSourceOf(obj);
  const ref = (kind === 'ConfigMap' ? source?.configMapKeyRef : source?.secretKeyRef)!;
  const read = reader.ctx.readBytes;
  if (!read) throw new Error(`cannot read ${IMAGE_FIELD}: this context reads no binary data`);
  const field = `${IMAGE_FIELD}.${kind === 'ConfigMap' ? 'configMapKeyRef' : 'secretKeyRef'}`;
  const namespace = obj.metadata.namespace;
  const bytes = await readKeyRefBytes(read.bind(reader.ctx), { kind, namespace, ref, field });
  const where = `${kind} ${namespace}/${ref.name} key ${JSON.stringify(ref.key)} (${field})`;
  return { ...checkImage(bytes, where), source: kind };
}

/** Fetches the URL: policy refusals are InvalidSpec, failures of the server retried. */
async function fetchUrlImage(
  url: string,
  reader: SourceReader,
  signal?: AbortSignal,
): Promise<SourcedImage> {
  const field = `${IMAGE_FIELD}.url`;
  if (reader.disableUrlSources)
    throw invalid(
      `URL sources are disabled in this operator (--disable-url-sources); use configMapKeyRef or secretKeyRef`,
    );
  try {
    checkFetchableUrl(url, reader.fetchOptions?.allowAddress);
  } catch (err) {
    throw invalid(`${field}: ${(err as Error).message}`);
  }
  let fetched;
  try {
    fetched = await fetchPublicHttps(url, {
      maxBytes: MAX_WATERMARK_BYTES,
      timeoutMs: URL_FETCH_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
      ...reader.fetchOptions,
    });
  } catch (err) {
    // A refused address or redirect, or a body over the limit, is the spec's; the rest the server's.
    if (err instanceof UrlFetchError && /public address|redirect|limit/.test(err.why))
      throw invalid(`${field}: ${err.message}`);
    throw err;
  }
  return { ...checkImage(fetched.bytes, `the image at ${field}`), source: 'URL', url };
}

/** The image the spec names, read from its source (undefined: the spec names none). */
export async function readSourcedImage(
  obj: VideoLibrary,
  reader: SourceReader,
  signal?: AbortSignal,
): Promise<SourcedImage | undefined> {
  const source = imageSourceOf(obj);
  const kind = sourceKindOf(source);
  if (kind === 'URL') return fetchUrlImage(source!.url!, reader, signal);
  if (kind) return readKeyImage(obj, reader, kind);
  return undefined;
}
