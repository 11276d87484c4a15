/**
 * Wire types of edge rules, cache purge and storage zones, aliased from the official core
 * document (src/cdn/generated/core.ts) so callers never reach into the generated file.
 */
import type { components } from './generated/core.js';

type Core = components['schemas'];

/** An edge rule as read and written (EdgeRuleV2Model); `Guid` absent means "create". */
export type EdgeRule = Core['EdgeRuleV2Model'];
/** One trigger of an edge rule. */
export type EdgeRuleTrigger = Core['Trigger'];
/** One extra action of an edge rule. */
export type EdgeRuleExtraAction = Core['EdgeRuleV2ActionModel'];
/** Numeric edge rule action type. */
export type EdgeRuleActionType = Core['EdgeRuleActionType'];
/** Numeric trigger type. */
export type EdgeRuleTriggerType = Core['TriggerTypes'];
/** The storage zone record (its `Password` and `ReadOnlyPassword` are secrets). */
export type StorageZone = Core['StorageZoneModel'];
/** Body of `POST /storagezone` (`Name`, `Region` required). */
export type StorageZoneAddRequest = Core['StorageZoneModelAdd'];
/** Body of `POST /storagezone/{id}`. */
export type StorageZoneSettings = Core['StorageZoneSettingsModel'];
/** Options of `POST /purge`. */
export interface PurgeUrlOptions {
  /** Return before the purge completes. */
  async?: boolean;
  /** With a trailing `/`, purge only that path (no wildcard suffix). */
  exactPath?: boolean;
}
