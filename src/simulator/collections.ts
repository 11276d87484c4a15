/**
 * Keyed record stores of cdn-sim for the resources that hang off a shield zone or an
 * application (custom WAF rules, rate limits, access lists, bot detection, upload scanning,
 * custom pages, triggered WAF rules), for container registries and log forwarding, for the
 * files of the storage zones (storage/storage-files.ts) and for edge scripts (one record per
 * script with its code, variables, secret digests and releases: routes/compute-model.ts). One
 * generic store keeps the state file, reset and cleanup in one place: a collection is a map
 * from a string key to a JSON record, saved and restored with the rest of the state.
 */
import type { JsonObject } from './types.js';

/** Every collection the store holds. */
export const COLLECTION_NAMES = [
  'wafCustomRules',
  'rateLimits',
  'accessLists',
  'accessListConfigs',
  'botDetection',
  'uploadScanning',
  'customPages',
  'triggeredRules',
  'registries',
  'logForwarding',
  'storageFiles',
  'edgeScripts',
] as const;

/** Name of one collection. */
export type CollectionName = (typeof COLLECTION_NAMES)[number];

/** Serialized form: collection name -> key -> record. */
export type CollectionsSnapshot = Partial<Record<CollectionName, Record<string, JsonObject>>>;

/**
 * Records that belong to a shield zone carry `shieldZoneId`; those of an application carry
 * `appId` (see {@link Collections.dropShieldZone}, {@link Collections.dropApp}).
 */
export class Collections {
  readonly #maps = new Map<CollectionName, Map<string, JsonObject>>(
    COLLECTION_NAMES.map((name) => [name, new Map()]),
  );

  /** The map of one collection (mutable; callers `touch()` the state after a change). */
  of(name: CollectionName): Map<string, JsonObject> {
    return this.#maps.get(name) as Map<string, JsonObject>;
  }

  /** Records of a collection that belong to a shield zone, in insertion order. */
  ofShieldZone(name: CollectionName, shieldZoneId: number): JsonObject[] {
    return [...this.of(name).values()].filter((r) => r.shieldZoneId === shieldZoneId);
  }

  /** Removes every record of a deleted shield zone (rules, lists, settings, pages). */
  dropShieldZone(shieldZoneId: number): void {
    for (const map of this.#maps.values()) {
      for (const [key, record] of map) if (record.shieldZoneId === shieldZoneId) map.delete(key);
    }
  }

  /** Removes every record of a deleted application (its log forwarding). */
  dropApp(appId: string): void {
    for (const map of this.#maps.values()) {
      for (const [key, record] of map) if (record.appId === appId) map.delete(key);
    }
  }

  /** Empties every collection. */
  clear(): void {
    for (const map of this.#maps.values()) map.clear();
  }

  /** Deep copy for the state file. */
  snapshot(): CollectionsSnapshot {
    const out: CollectionsSnapshot = {};
    for (const [name, map] of this.#maps) out[name] = structuredClone(Object.fromEntries(map));
    return out;
  }

  /** Replaces the content with a snapshot; unknown collection names are ignored. */
  restore(snapshot: CollectionsSnapshot | undefined): void {
    this.clear();
    for (const name of COLLECTION_NAMES) {
      const records = snapshot?.[name];
      if (!records) continue;
      for (const [key, record] of Object.entries(records))
        this.of(name).set(key, structuredClone(record));
    }
  }
}

/** A snapshot problem (for the state file check), or undefined. */
export function collectionsProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'collections is not an object';
  for (const [name, records] of Object.entries(value as Record<string, unknown>)) {
    if (typeof records !== 'object' || records === null || Array.isArray(records))
      return `collections.${name} is not an object`;
  }
  return undefined;
}
