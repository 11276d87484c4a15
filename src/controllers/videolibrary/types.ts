/** The VideoLibrary custom resource as the controller reads it (its fields: fields.ts). */
import type { ManagedObject } from '../../runtime/types.js';
import type { SpecOf } from '../kit/fields.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { VIDEO_LIBRARY_FIELDS } from './fields.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const VIDEO_LIBRARY_NAMES: NamedResourceKind = {
  kind: 'VideoLibrary',
  plural: 'videolibraries',
  shortNames: ['vl'],
  scope: 'Namespaced',
  family: 'video',
  platformNames: 'shared',
};

/** `spec` of a VideoLibrary: the field table's members and the shared parts. */
export type VideoLibrarySpec = SpecOf<typeof VIDEO_LIBRARY_FIELDS> &
  AccountSpec &
  AdoptionSpec & {
    /** The Secret this object creates and owns, with the library's API keys (keys.ts). */
    outputSecretRef?: { name: string };
    /** The watermark image beside its position (watermark-source.ts). */
    watermark?: { image?: WatermarkImageSource };
  };

/** A ConfigMap or Secret key of the object's namespace. */
export interface KeyRef {
  name: string;
  key: string;
}

/** `spec.watermark.image`: exactly one source. */
export interface WatermarkImageSource {
  configMapKeyRef?: KeyRef;
  secretKeyRef?: KeyRef;
  url?: string;
}

/** The kinds of image source, as status names them. */
export type WatermarkSourceKind = 'ConfigMap' | 'Secret' | 'URL';

/** `status.watermark`: what the operator uploaded (never the image). */
export interface WatermarkStatus {
  source: WatermarkSourceKind;
  /** Hex SHA-256 of the image (ConfigMap and URL sources). */
  imageSha256?: string;
  /** `sha256:` fingerprint salted with the object's uid (a Secret source: says nothing of it). */
  imageFingerprint?: string;
  /** Size of the image in bytes (ConfigMap and URL sources). */
  bytes?: number;
  /** The URL fetched (a URL source): fetched again only when the spec names another. */
  url?: string;
  /** The library's `WatermarkVersion` after the upload: another one means someone replaced it. */
  version?: number;
}

/** The key reset requests handled: the annotation values (keys.ts). */
export interface KeyResetStatus {
  apiKey?: string;
  readOnlyApiKey?: string;
}

/** `status` of a VideoLibrary. */
export interface VideoLibraryStatus extends KindStatus {
  libraryId?: number | string;
  name?: string;
  /** The library's own pull zone (created with it by the platform). */
  pullZoneId?: number;
  pullZoneHostname?: string;
  /** The library's own storage zone (created with it by the platform). */
  storageZoneId?: number;
  storageZoneHostname?: string;
  replicationRegions?: string[];
  keyReset?: KeyResetStatus;
  watermark?: WatermarkStatus;
}

export interface VideoLibrary extends ManagedObject {
  spec?: VideoLibrarySpec & Record<string, unknown>;
  status?: VideoLibraryStatus;
}
