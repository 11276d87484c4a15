/**
 * Wire types of the video library endpoints (`/videolibrary...`, the core document's "Stream
 * Video Library"), named from the generated document types. `ApiKey` and `ReadOnlyApiKey`
 * (and the deprecated `ApiAccessKey`, the same value) are credentials: the client registers
 * them as secrets on every read.
 */
import type { components } from './generated/core.js';

type Core = components['schemas'];

/** A library as read (`GET /videolibrary/{id}`, the answers of add and update). */
export type VideoLibrary = Core['VideoLibraryModel'];
/** Body of `POST /videolibrary` (`Name` required). */
export type VideoLibraryAddRequest = Core['VideoLibraryCreateModel'];
/** Body of `POST /videolibrary/{id}`: every member optional; left out or null keeps a setting. */
export type VideoLibraryUpdate = Core['VideoLibraryUpdateModel'];
/** One language of the player and the transcription. */
export type VideoLibraryLanguage = Core['VideoLibraryLanguage'];
/** The two referrer lists, each changed one hostname at a time. */
export type VideoLibraryReferrerList = 'allowed' | 'blocked';
/** Which key a reset replaces. */
export type VideoLibraryKey = 'apiKey' | 'readOnlyApiKey';
