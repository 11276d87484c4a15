/**
 * The video library record of cdn-sim (core document, "Stream Video Library"): a new library's
 * defaults, its rendering as `VideoLibraryModel`, the update model applied to it and the
 * platform objects that come with it.
 *
 * Decisions where the official document is silent (docs/simulator.md):
 * - like the live platform, a created library gets its own storage zone (main region DE, the
 *   create's replication regions) and a pull zone serving from it (`OriginType` StorageZone,
 *   `VideoLibraryId` set), both named `vz-<8 hex>` and visible in `/pullzone` and
 *   `/storagezone`; deleting the library deletes both;
 * - the record's `ReplicationRegions` are the storage zone's, read at each rendering;
 * - `EnableTokenAuthentication`, `EnableTokenIPVerification` and `ResetToken` of the update
 *   model act on the library's pull zone (`ZoneSecurityEnabled`,
 *   `ZoneSecurityIncludeHashRemoteIP`, a new `ZoneSecurityKey`): the library record has no
 *   member for them;
 * - `ApiKey` and `ReadOnlyApiKey` are uuid-like and change only by their reset operations;
 *   `ApiAccessKey` (deprecated) repeats `ApiKey`;
 * - library names are not unique.
 *
 * Every member of the document's `VideoLibraryModel` is present: defaults come from the
 * model's types (the committed API model), overridden by the values a new library has.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { CORE_API_MODEL } from '../generated/api-model/core.js';
import type { SimState, StoredPullZone, StoredVideoLibrary } from '../state.js';
import type { JsonObject } from '../types.js';
import { dropZoneFiles } from '../storage/storage-files.js';
import { createPullZone, freePullZoneName, removePullZone } from './pullzone-model.js';
import { createStorageZone } from './storage-zones-model.js';

type Json = Record<string, unknown>;

/** `PullZoneOriginType` StorageZone. */
const ORIGIN_STORAGE_ZONE = 2;

/** The members of a `components.schemas` entry of the core model. */
function modelProperties(name: string): Record<string, Json> {
  const schemas = (CORE_API_MODEL.components as Json).schemas as Record<string, Json>;
  return (schemas[name]?.properties ?? {}) as Record<string, Json>;
}

/** What a member reads before anything set it: null, an empty list, false, 0 or "". */
function zeroOf(schema: Json): unknown {
  if (schema.nullable === true) return null;
  if (schema.type === 'array') return [];
  if (schema.type === 'boolean') return false;
  if (schema.type === 'string') return '';
  return 0;
}

/** The values a new library has where the zero value is not the platform's. */
const NEW_LIBRARY: JsonObject = {
  EnabledResolutions: '240p,360p,480p,720p,1080p',
  CaptionsFontSize: 20,
  CaptionsFontColor: '#fff',
  CaptionsBackground: '#000',
  UILanguage: 'en',
  AllowEarlyPlay: false,
  AllowedReferrers: [],
  BlockedReferrers: [],
  ReplicationRegions: [],
  KeepOriginalFiles: true,
  AllowDirectPlay: true,
  EnableContentTagging: true,
  Bitrate240p: 600,
  Bitrate360p: 800,
  Bitrate480p: 1400,
  Bitrate720p: 2800,
  Bitrate1080p: 5000,
  Bitrate1440p: 8000,
  Bitrate2160p: 13000,
  Controls:
    'play-large,play,progress,current-time,mute,volume,captions,settings,pip,airplay,fullscreen',
  PlaybackSpeeds: '0.5,0.75,1,1.25,1.5,1.75,2',
  PlayerKeyColor: '#ff7755',
  FontFamily: 'rubik',
  OutputCodecs: 'x264',
  EnableCaptionsInPlaylist: false,
  TranscribingCaptionLanguages: [],
  PlayerVersion: 1,
  WatermarkPositionLeft: 70,
  WatermarkPositionTop: 70,
  WatermarkWidth: 12,
  WatermarkHeight: 12,
  AppleFairPlayDrm: {
    Enabled: false,
    CertificateId: null,
    CertificateExpirationDate: null,
    Provider: null,
  },
  GoogleWidevineDrm: {
    Enabled: false,
    CertificateId: null,
    CertificateExpirationDate: null,
    Provider: null,
    SdOnlyForL3: false,
    MinClientSecurityLevel: null,
  },
};

/** Every VideoLibraryModel member at its new-library value. */
function defaultRecord(): JsonObject {
  const out: JsonObject = {};
  for (const [name, schema] of Object.entries(modelProperties('VideoLibraryModel')))
    out[name] = name in NEW_LIBRARY ? structuredClone(NEW_LIBRARY[name]) : zeroOf(schema);
  return out;
}

/** A fresh library API key (uuid-like with a random tail, like the storage passwords). */
function newApiKey(): string {
  return `${randomUUID()}-${randomBytes(6).toString('hex')}`;
}

/**
 * Fills in the members a library of the seed (Id and Name only) or of an older state file
 * lacks, keys included, and marks the state changed when it did, so they are saved (a restart
 * must not change the keys).
 */
export function completeLibrary(state: SimState, library: StoredVideoLibrary): void {
  if (typeof library.ApiKey === 'string') return;
  for (const [name, value] of Object.entries(defaultRecord()))
    if (!(name in library)) library[name] = value;
  library.ApiKey = newApiKey();
  library.ReadOnlyApiKey = newApiKey();
  state.touch();
}

/** Create-model members copied to the record as they are (the rest is the route's). */
const CREATE_COPIED = Object.keys(modelProperties('VideoLibraryCreateModel')).filter(
  (name) => name !== 'Name' && name !== 'ReplicationRegions',
);

/**
 * Creates a library from a validated create body, with its storage zone (region DE, the
 * body's replication regions) and its pull zone serving from it.
 */
export function createLibrary(state: SimState, body: JsonObject): StoredVideoLibrary {
  const id = state.allocateId('videoLibrary');
  const now = new Date().toISOString();
  const name = freePullZoneName(state, `vz-${randomBytes(4).toString('hex')}`);
  const storage = createStorageZone(state, {
    Name: name,
    Region: 'DE',
    ReplicationRegions: body.ReplicationRegions ?? [],
  });
  const zone = createPullZone(state, name, {
    OriginType: ORIGIN_STORAGE_ZONE,
    StorageZoneId: storage.Id,
  });
  zone.record.VideoLibraryId = id;
  const library: StoredVideoLibrary = {
    ...defaultRecord(),
    Id: id,
    Name: body.Name as string,
    BlockedReferrers: [],
    DateCreated: now,
    DateModified: now,
    ApiKey: newApiKey(),
    ReadOnlyApiKey: newApiKey(),
    PullZoneId: Number(zone.record.Id),
    StorageZoneId: storage.Id,
  };
  for (const member of CREATE_COPIED) {
    if (body[member] !== undefined && body[member] !== null) library[member] = body[member];
  }
  state.videoLibraries.set(id, library);
  state.touch();
  return library;
}

/** The library's pull zone, when it has one. */
export function pullZoneOf(
  state: SimState,
  library: StoredVideoLibrary,
): StoredPullZone | undefined {
  return state.pullZones.get(Number(library.PullZoneId));
}

/** Deletes a library with its pull zone and storage zone (and the zone's files). */
export function deleteLibrary(state: SimState, library: StoredVideoLibrary): void {
  state.videoLibraries.delete(library.Id);
  if (pullZoneOf(state, library)) removePullZone(state, Number(library.PullZoneId));
  const storageId = Number(library.StorageZoneId);
  if (state.storageZones.delete(storageId)) dropZoneFiles(state, storageId);
  state.touch();
}

/** Update-model members that act on the library's pull zone: update member -> pull zone member. */
const ON_PULL_ZONE: Record<string, string> = {
  EnableTokenAuthentication: 'ZoneSecurityEnabled',
  EnableTokenIPVerification: 'ZoneSecurityIncludeHashRemoteIP',
};

/** Members of a nested update object (`AppleFairPlayDrm`) over the record's. */
function mergeNested(library: StoredVideoLibrary, member: string, value: Json): void {
  const current = (library[member] ?? {}) as Json;
  const set = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
  library[member] = { ...current, ...set };
}

/** The pull zone part of an update (token authentication, a new token key). */
function applyToPullZone(state: SimState, library: StoredVideoLibrary, body: JsonObject): void {
  const zone = pullZoneOf(state, library);
  if (!zone) return;
  for (const [member, zoneMember] of Object.entries(ON_PULL_ZONE)) {
    if (typeof body[member] === 'boolean') zone.record[zoneMember] = body[member];
  }
  if (body.ResetToken === true) zone.record.ZoneSecurityKey = randomUUID();
}

/** Applies a validated update body; null members leave a setting unchanged. */
export function updateLibrary(
  state: SimState,
  library: StoredVideoLibrary,
  body: JsonObject,
): void {
  applyToPullZone(state, library, body);
  for (const [member, value] of Object.entries(body)) {
    if (value === null || member in ON_PULL_ZONE || member === 'ResetToken') continue;
    if (typeof value === 'object' && !Array.isArray(value))
      mergeNested(library, member, value as Json);
    else library[member] = value;
  }
  library.DateModified = new Date().toISOString();
  state.touch();
}

/** Replaces one of the library's API keys. */
export function resetKey(
  state: SimState,
  library: StoredVideoLibrary,
  member: 'ApiKey' | 'ReadOnlyApiKey',
): void {
  library[member] = newApiKey();
  library.DateModified = new Date().toISOString();
  state.touch();
}

/** The library as the API returns it: every VideoLibraryModel member, nothing else. */
export function renderLibrary(state: SimState, library: StoredVideoLibrary): JsonObject {
  completeLibrary(state, library);
  const out: JsonObject = {};
  for (const name of Object.keys(modelProperties('VideoLibraryModel'))) out[name] = library[name];
  const storage = state.storageZones.get(Number(library.StorageZoneId));
  if (storage) out.ReplicationRegions = [...((storage.ReplicationRegions as string[]) ?? [])];
  out.ApiAccessKey = library.ApiKey;
  return structuredClone(out);
}
