/**
 * The watermark image (`spec.watermark.image`, its source: watermark-source.ts). The platform
 * has no read of the image, only `HasWatermark` and `WatermarkVersion` on the library, so the
 * operator keeps what it uploaded in `status.watermark`: the source, a digest of the image
 * (SHA-256 of a ConfigMap's or URL's bytes; for a Secret a fingerprint salted with the object's
 * uid, like every Secret-sourced value), never the image, and the library's version after the
 * upload. A pass then:
 *
 * - uploads (one `PUT .../watermark`) when the source's digest differs from the recorded one,
 *   when the library has no watermark or another version than the one recorded (replaced or
 *   removed behind the operator's back), or when nothing is recorded yet;
 * - reads a URL again only when the spec names another URL than the one recorded (or the
 *   library lost the image): a URL is fetched once per change, not every poll;
 * - removes (one `DELETE .../watermark`) once when the spec names no image any more and status
 *   records an upload, then forgets it; an image the operator never uploaded is left alone.
 *
 * The plan entry (`watermark.image`) shows digests, `<redacted>` for a Secret's.
 */
import { createHash } from 'node:crypto';
import type { FieldDiff } from '../../runtime/types.js';
import type { FieldsDiff } from '../kit/fields.js';
import { REDACTED, UNSET } from '../shared/plan.js';
import { fingerprintSecretValue } from '../shared/secret-fingerprint.js';
import type { VideoLibrary, WatermarkStatus } from './types.js';
import {
  imageSourceOf,
  readSourcedImage,
  sourceKindOf,
  type SourceReader,
  type SourcedImage,
} from './watermark-source.js';

/** The update body's member of the image: the image to upload, or null to remove it. */
export const WATERMARK_MEMBER = 'watermarkImage';
/** The plan entry's field. */
const PLAN_FIELD = 'watermark.image';

/** What the library record says of its watermark. */
export interface LiveWatermark {
  HasWatermark?: boolean;
  WatermarkVersion?: number;
}

/** The status of an upload of `image` by the object `uid`, with the version read after it. */
export function uploadStatus(
  image: SourcedImage,
  uid: string | undefined,
  version: number | undefined,
): WatermarkStatus {
  const bytes = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const digest =
    image.source === 'Secret'
      ? // A Secret's bytes are hashed with the uid, as base64 (the fingerprint takes text).
        {
          imageFingerprint: fingerprintSecretValue(
            'videolibrary/watermark',
            uid,
            bytes.toString('base64'),
          ),
        }
      : { imageSha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  return {
    source: image.source,
    ...digest,
    ...(image.url !== undefined ? { url: image.url } : {}),
    ...(version !== undefined ? { version } : {}),
  };
}

/** The digest a plan shows of a recorded upload (a Secret's redacted). */
function shownDigest(status: WatermarkStatus | undefined): string {
  if (!status) return UNSET;
  if (status.source === 'Secret') return REDACTED;
  return `sha256:${status.imageSha256 ?? ''}`;
}

/** Whether the live library lost (or had replaced) the image status records. */
export function watermarkLost(recorded: WatermarkStatus | undefined, live: LiveWatermark): boolean {
  if (live.HasWatermark !== true) return true;
  const version = live.WatermarkVersion;
  return recorded?.version !== undefined && version !== undefined && version !== recorded.version;
}

/** Whether an upload of `image` would give the recorded status (same source, same digest). */
export function sameImage(
  recorded: WatermarkStatus | undefined,
  image: SourcedImage,
  uid: string | undefined,
): boolean {
  if (!recorded || recorded.source !== image.source) return false;
  const next = uploadStatus(image, uid, undefined);
  return image.source === 'Secret'
    ? next.imageFingerprint === recorded.imageFingerprint
    : next.imageSha256 === recorded.imageSha256 && next.url === recorded.url;
}

/** The plan of the image: nothing, an upload of `image`, or the removal (`null`). */
export type WatermarkPlan =
  | { action: 'none' }
  | { action: 'upload'; image: SourcedImage; diff: FieldDiff }
  | { action: 'remove'; diff: FieldDiff };

const NOTHING: WatermarkPlan = { action: 'none' };

/**
 * The plan (module comment). `read` reads the source (called only when its digest is needed: a
 * URL already uploaded is not fetched again).
 */
export async function planWatermark(
  obj: VideoLibrary,
  live: LiveWatermark,
  read: () => Promise<SourcedImage | undefined>,
): Promise<WatermarkPlan> {
  const recorded = obj.status?.watermark;
  const source = imageSourceOf(obj);
  if (sourceKindOf(source) === undefined) return removalPlan(recorded, live);
  const lost = watermarkLost(recorded, live);
  if (!lost && isUploadedUrl(source?.url, recorded)) return NOTHING;
  const image = await read();
  if (!image) return NOTHING;
  if (!lost && sameImage(recorded, image, obj.metadata.uid)) return NOTHING;
  return uploadPlan(image, obj.metadata.uid, lost ? recorded : undefined, recorded);
}

/** A URL already uploaded: not fetched again while the library keeps its image. */
function isUploadedUrl(url: string | undefined, recorded: WatermarkStatus | undefined): boolean {
  return url !== undefined && recorded?.url === url;
}

/** With no source: remove the image status records, once, if the library still has one. */
function removalPlan(recorded: WatermarkStatus | undefined, live: LiveWatermark): WatermarkPlan {
  if (!recorded || live.HasWatermark !== true) return NOTHING;
  return {
    action: 'remove',
    diff: { field: PLAN_FIELD, live: shownDigest(recorded), desired: UNSET },
  };
}

/** The upload of `image`; `lostOne`: the recorded image the library no longer has. */
function uploadPlan(
  image: SourcedImage,
  uid: string | undefined,
  lostOne: WatermarkStatus | undefined,
  recorded: WatermarkStatus | undefined,
): WatermarkPlan {
  const next = shownDigest(uploadStatus(image, uid, undefined));
  const desired = lostOne ? `${next} (missing on the platform)` : next;
  return {
    action: 'upload',
    image,
    diff: { field: PLAN_FIELD, live: shownDigest(recorded), desired },
  };
}

/**
 * What `cdnctl diff` can say without the source or status: an image the spec names that the
 * library lacks (the platform answers no image to compare with one it has).
 */
function sourceOnlyPlan(obj: VideoLibrary, live: LiveWatermark): FieldDiff | undefined {
  const kind = sourceKindOf(imageSourceOf(obj));
  if (!kind || live.HasWatermark === true) return undefined;
  return { field: PLAN_FIELD, live: UNSET, desired: `<image from ${kind}>` };
}

/**
 * The `compare` hook's part: `diff` with the image's entry and update member added. Without a
 * `reader` (cdnctl diff) only an entry, from {@link sourceOnlyPlan}.
 */
export async function compareWatermark(
  obj: VideoLibrary,
  live: LiveWatermark,
  diff: FieldsDiff,
  reader: SourceReader | undefined,
): Promise<FieldsDiff> {
  if (!reader) {
    const entry = sourceOnlyPlan(obj, live);
    return entry ? { ...diff, diffs: [...diff.diffs, entry] } : diff;
  }
  const plan = await planWatermark(obj, live, () => readSourcedImage(obj, reader));
  if (plan.action === 'none') return diff;
  return {
    ...diff,
    diffs: [...diff.diffs, plan.diff],
    update: { ...diff.update, [WATERMARK_MEMBER]: plan.action === 'upload' ? plan.image : null },
  };
}

/**
 * `status.watermark` after a pass: the upload `sent` just made (or its removal: forgotten);
 * forgotten too when the spec names no image and the library has none; else as recorded.
 */
export function watermarkStatusOf(
  obj: VideoLibrary,
  live: LiveWatermark,
  sent: Record<string, unknown> | undefined,
): { watermark?: WatermarkStatus } {
  if (sent && WATERMARK_MEMBER in sent) {
    const image = sent[WATERMARK_MEMBER] as SourcedImage | null;
    return {
      watermark: image ? uploadStatus(image, obj.metadata.uid, live.WatermarkVersion) : undefined,
    };
  }
  if (!imageSourceOf(obj) && live.HasWatermark !== true) return { watermark: undefined };
  return {};
}
