/**
 * The VideoLibrary's fields, written once (kit/fields.ts): every setting of the core document's
 * library update model (`VideoLibraryUpdateModel`) but the one-shot `ResetToken`, grouped as the
 * spec shows them (encoding, player, captions, transcription, security, DRM, watermark). The
 * members the create model (`VideoLibraryCreateModel`) also has go with the create; the others
 * (`write: 'update'`) with the update the same pass sends after it.
 *
 * Three members are not plain update members (index.ts, referrers.ts): the referrer lists change
 * one hostname per call (`add/removeAllowedReferrer`, `add/removeBlockedReferrer`); the CDN token
 * authentication switches are read from the library's pull zone, which they act on; the
 * replication regions are set by the create only (the update model lacks them).
 */
import { enumByIndex, flag, group, integer, text, textSet } from '../kit/codecs.js';
import { field, type Field } from '../kit/fields.js';
import { commaSet } from './comma-list.js';

/** `EncodingTier` of the core document, in number order. */
export const ENCODING_TIERS = ['Free', 'Premium'] as const;
/** `DrmVersion` of the core document, in number order. */
export const DRM_VERSIONS = ['Basic', 'Enterprise', 'BasicV2'] as const;
/** `WidevineMinClientSecurityLevel` of the core document, in number order. */
export const WIDEVINE_LEVELS = ['None', 'L1', 'L2', 'L3'] as const;
/** The resolutions the document lists for `EnabledResolutions`. */
export const RESOLUTIONS = ['240p', '360p', '480p', '720p', '1080p', '1440p', '2160p'] as const;
/** The codecs the document names for `OutputCodecs` (all but x264 need the premium tier). */
export const CODECS = ['x264', 'vp9', 'hevc', 'av1'] as const;
/** Replication regions of the library's storage zone (those of storage zones). */
export const REPLICATION_REGIONS = ['DE', 'NY', 'LA', 'SG', 'SYD'] as const;

/** A switch of the update model; `create`: the create model has it too. */
function toggle<const S extends string>(
  spec: S,
  api: string,
  description: string,
  create = false,
): Field<S, boolean> {
  return field(spec, flag(), {
    api,
    unset: false,
    description,
    ...(create ? {} : { write: 'update' as const }),
  });
}

/** A string setting of the update model (a record's null reads as ""). */
function setting<const S extends string>(
  spec: S,
  api: string,
  description: string,
  maxLength = 2048,
): Field<S, string> {
  return field(spec, text({ maxLength }), { api, write: 'update', unset: '', description });
}

/** An encoding bitrate (kbit/s) of one resolution. */
function bitrate<const R extends string>(resolution: R): Field<`encoding.bitrate${R}`, number> {
  return field(`encoding.bitrate${resolution}`, integer({ minimum: 0, maximum: 100000 }), {
    api: `Bitrate${resolution}`,
    write: 'update',
    description: `Encoding bitrate of ${resolution} renditions, in kbit/s.`,
  });
}

/** A watermark position or size, in percent of the video. */
function percent<const S extends string>(spec: S, api: string, what: string): Field<S, number> {
  return field(spec, integer({ minimum: 0, maximum: 100 }), {
    api,
    write: 'update',
    description: `${what} of the watermark, in percent of the video.`,
  });
}

export const VIDEO_LIBRARY_FIELDS = [
  field('name', text({ minLength: 1, maxLength: 200 }), {
    api: 'Name',
    status: 'name',
    defaultOf: (obj) => obj.metadata.name,
    description:
      'Name of the library on the platform (defaults to metadata.name). Library names are not unique on the platform; adoption by name matches the exact name.',
  }),
  field('replicationRegions', textSet({ enum: [...REPLICATION_REGIONS] }), {
    api: 'ReplicationRegions',
    write: 'create',
    status: 'replicationRegions',
    same: (live, wanted) => wanted.every((r) => live.includes(r)),
    immutableRules: [
      {
        rule: 'self == oldSelf',
        message: 'replicationRegions are set when the library is created',
      },
    ],
    description:
      "Regions the library's storage zone replicates the videos to, besides its main region. Set when the library is created (add more on the storage zone itself). Immutable.",
  }),
  field('webhookUrl', text({ maxLength: 2048 }), {
    api: 'WebhookUrl',
    write: 'update',
    unset: '',
    description: 'URL the platform calls when a video changes state (encoded, failed, ...).',
  }),

  field('encoding', group(), { description: 'How uploaded videos are encoded.' }),
  field('encoding.tier', enumByIndex(ENCODING_TIERS), {
    api: 'EncodingTier',
    unset: 'Free',
    bounds: (docs) => ({ enum: docs.xEnumNames('core', 'EncodingTier') }),
    description:
      'Free, or Premium (paid: just-in-time or prioritized encoding and codecs beyond x264).',
  }),
  toggle(
    'encoding.jit',
    'JitEncodingEnabled',
    'Encode on first play instead of at upload (Premium tier only).',
    true,
  ),
  field('encoding.outputCodecs', commaSet(CODECS), {
    api: 'OutputCodecs',
    description:
      'Codecs videos are encoded to: x264 on the Free tier; vp9, hevc and av1 need Premium.',
  }),
  field('encoding.resolutions', commaSet(RESOLUTIONS), {
    api: 'EnabledResolutions',
    description: 'Resolutions videos are encoded to (at least one).',
  }),
  bitrate('240p'),
  bitrate('360p'),
  bitrate('480p'),
  bitrate('720p'),
  bitrate('1080p'),
  bitrate('1440p'),
  bitrate('2160p'),
  toggle(
    'encoding.keepOriginalFiles',
    'KeepOriginalFiles',
    'Keep the uploaded file after encoding.',
    true,
  ),
  toggle(
    'encoding.mp4Fallback',
    'EnableMP4Fallback',
    'Also encode MP4 files for players without HLS.',
    true,
  ),
  toggle(
    'encoding.multiAudioTrack',
    'EnableMultiAudioTrackSupport',
    'Keep several audio tracks in the output.',
    true,
  ),
  toggle(
    'encoding.separateAudioStream',
    'UseSeparateAudioStream',
    'Serve audio as a stream of its own, apart from the video segments.',
  ),
  toggle(
    'encoding.removeFallbackMetadata',
    'RemoveMetadataFromFallbackVideos',
    'Strip metadata from the MP4 fallback files.',
  ),
  toggle(
    'encoding.scaleBothDimensions',
    'ScaleVideoUsingBothDimensions',
    'Scale by width and height, so that no video is upscaled or distorted.',
  ),
  toggle('encoding.contentTagging', 'EnableContentTagging', 'Tag the content of uploaded videos.'),
  toggle(
    'encoding.earlyPlay',
    'AllowEarlyPlay',
    'Play a video before its encoding has finished (turns on exposeOriginals on the platform).',
    true,
  ),
  toggle(
    'encoding.exposeOriginals',
    'ExposeOriginals',
    'Serve the original files through the CDN (originals are not DRM-protected).',
  ),

  field('player', group(), { description: 'The embedded player.' }),
  field('player.version', integer({ minimum: 1, maximum: 100 }), {
    api: 'PlayerVersion',
    description: 'Player version the library uses.',
  }),
  setting('player.keyColor', 'PlayerKeyColor', 'Key color of the player controls (#rrggbb).', 32),
  setting('player.customHtml', 'CustomHTML', 'HTML added to the player page.', 65536),
  setting(
    'player.controls',
    'Controls',
    'Comma-separated controls the player shows (play-large, play, progress, current-time, mute, volume, captions, settings, pip, airplay, fullscreen).',
  ),
  setting(
    'player.playbackSpeeds',
    'PlaybackSpeeds',
    'Comma-separated playback speeds the player offers (0.25 to 4).',
  ),
  setting(
    'player.language',
    'UILanguage',
    'Language of the player interface (a short code: en).',
    16,
  ),
  setting('player.fontFamily', 'FontFamily', 'Font family of the captions.', 128),
  setting('player.vastTagUrl', 'VastTagUrl', 'VAST tag URL of the advertisements to play.'),
  setting('player.viAiPublisherId', 'ViAiPublisherId', 'vi.ai publisher id.', 256),
  toggle('player.showHeatmap', 'ShowHeatmap', 'Show the watch heatmap on the progress bar.'),
  toggle(
    'player.rememberPosition',
    'RememberPlayerPosition',
    'Resume a video where the viewer left it.',
  ),
  toggle('player.compactControls', 'EnableCompactControls', 'Compact player controls.'),
  toggle(
    'player.exposeVideoMetadata',
    'ExposeVideoMetadata',
    'Publish video metadata as schema meta tags and LD+JSON.',
  ),

  field('captions', group(), { description: 'How the player shows captions.' }),
  field('captions.fontSize', integer({ minimum: 1, maximum: 200 }), {
    api: 'CaptionsFontSize',
    write: 'update',
    description: 'Font size of the captions.',
  }),
  setting('captions.fontColor', 'CaptionsFontColor', 'Font color of the captions.', 32),
  setting('captions.background', 'CaptionsBackground', 'Background color of the captions.', 32),
  toggle(
    'captions.inPlaylist',
    'EnableCaptionsInPlaylist',
    'Announce the captions in the HLS playlist, for players other than the platform one.',
  ),

  field('transcription', group(), { description: 'Automatic transcription of the audio.' }),
  toggle(
    'transcription.enabled',
    'EnableTranscribing',
    'Transcribe uploaded videos into captions.',
    true,
  ),
  field('transcription.languages', textSet({ minLength: 2, maxLength: 16 }), {
    api: 'TranscribingCaptionLanguages',
    description: 'Languages (short codes) the captions are transcribed into.',
  }),
  toggle(
    'transcription.titles',
    'EnableTranscribingTitleGeneration',
    'Generate a title from the transcript.',
    true,
  ),
  toggle(
    'transcription.descriptions',
    'EnableTranscribingDescriptionGeneration',
    'Generate a description from the transcript.',
    true,
  ),
  toggle(
    'transcription.chapters',
    'EnableTranscribingChaptersGeneration',
    'Generate chapters from the transcript.',
    true,
  ),
  toggle(
    'transcription.moments',
    'EnableTranscribingMomentsGeneration',
    'Generate key moments from the transcript.',
    true,
  ),

  field('security', group(), { description: 'Who may play the videos.' }),
  field('security.allowedReferrers', textSet({ minLength: 1, maxLength: 253 }), {
    api: 'AllowedReferrers',
    write: 'update',
    description:
      'Referrer hostnames allowed to embed the videos; empty allows all. Set (even empty): the library holds exactly these.',
  }),
  field('security.blockedReferrers', textSet({ minLength: 1, maxLength: 253 }), {
    api: 'BlockedReferrers',
    write: 'update',
    description: 'Referrer hostnames refused. Set (even empty): the library holds exactly these.',
  }),
  toggle(
    'security.blockNoneReferrer',
    'BlockNoneReferrer',
    'Refuse requests that carry no referrer.',
    true,
  ),
  toggle('security.allowDirectPlay', 'AllowDirectPlay', 'Allow direct play URLs.', true),
  toggle(
    'security.playerTokenAuthentication',
    'PlayerTokenAuthenticationEnabled',
    'The embed view needs a signed token.',
  ),
  field('security.cdnTokenAuthentication', flag(), {
    api: 'EnableTokenAuthentication',
    record: 'pullZone.ZoneSecurityEnabled',
    write: 'update',
    unset: false,
    description: "CDN URLs need a signed token (the library's pull zone's token authentication).",
  }),
  field('security.cdnTokenIpVerification', flag(), {
    api: 'EnableTokenIPVerification',
    record: 'pullZone.ZoneSecurityIncludeHashRemoteIP',
    write: 'update',
    unset: false,
    description: "The CDN token is bound to the viewer's IP address.",
  }),

  field('drm', group(), { description: 'DRM protection of the videos.' }),
  toggle('drm.enabled', 'EnableDRM', 'MediaCage DRM.'),
  field('drm.version', enumByIndex(DRM_VERSIONS), {
    api: 'DrmVersion',
    write: 'update',
    unset: 'Basic',
    bounds: (docs) => ({ enum: docs.xEnumNames('core', 'DrmVersion') }),
    description: 'MediaCage DRM version: Basic, Enterprise or BasicV2.',
  }),
  toggle(
    'drm.fairPlay',
    'AppleFairPlayDrm.Enabled',
    'Apple FairPlay (needs Enterprise DRM set up on the account).',
  ),
  toggle(
    'drm.widevine',
    'GoogleWidevineDrm.Enabled',
    'Google Widevine (needs Enterprise DRM set up on the account).',
  ),
  toggle(
    'drm.widevineSdOnlyForL3',
    'GoogleWidevineDrm.SdOnlyForL3',
    'Give Widevine L3 clients audio and SD only.',
  ),
  field('drm.widevineMinSecurityLevel', enumByIndex(WIDEVINE_LEVELS), {
    api: 'GoogleWidevineDrm.MinClientSecurityLevel',
    write: 'update',
    bounds: (docs) => ({ enum: docs.xEnumNames('core', 'WidevineMinClientSecurityLevel') }),
    description: 'Least Widevine client security level served (L1 most secure, L3 the default).',
  }),

  field('watermark', group(), {
    description:
      'The watermark: where it sits, and its image (image: from a ConfigMap or Secret key or an https URL).',
  }),
  percent('watermark.left', 'WatermarkPositionLeft', 'Left offset'),
  percent('watermark.top', 'WatermarkPositionTop', 'Top offset'),
  percent('watermark.width', 'WatermarkWidth', 'Width'),
  percent('watermark.height', 'WatermarkHeight', 'Height'),
] as const;
