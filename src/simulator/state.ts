/**
 * In-memory platform state of cdn-sim: pull zones, container apps, shield zones, seeded storage
 * zones, video libraries, WAF rule metrics, DNS zones, and (in `collections`) the records of
 * the other areas, edge scripts among them. Every mutation goes through `touch()`, which
 * bumps `revision` so persistence can save after changes.
 */
import { Collections, type CollectionsSnapshot } from './collections.js';
import type { JsonObject } from './json.js';
import type { StoredDnsZone } from './dns-state.js';
import { seedPublicRegistries } from './routes/mc-registries.js';
import { LIVE_STORAGE_HOSTNAME } from './storage/storage-host.js';

/** A pull zone: the API record plus settings the record does not show. */
export interface StoredPullZone {
  record: JsonObject;
  /** Update-model fields that PullZoneModel does not return (e.g. DnsOriginPort). */
  hidden: JsonObject;
}

/** A container app: its read model plus write-only settings. */
export interface StoredApp {
  app: JsonObject;
  hidden: {
    terminationGracePeriodSeconds?: number;
    nodeSelectors?: Record<string, string> | null;
    /** Endpoint id -> pull zone the simulator created for it. */
    autoPullZones: Record<string, number>;
  };
}

/** A storage zone: Id and Name (all a seeded zone has) plus the fields set at create/update. */
export interface StoredStorageZone {
  Id: number;
  Name: string;
  [field: string]: unknown;
}

/**
 * A video library: Id and Name (all a seeded library has) plus the VideoLibraryModel members
 * (routes/video-library-model.ts) and its uploads (`uploads.<member>`: bytes as base64, size,
 * digest, media type; routes/video-libraries.ts).
 */
export interface StoredVideoLibrary {
  Id: number;
  Name: string;
  BlockedReferrers?: string[];
  [field: string]: unknown;
}

/** Serialized form (state file, `GET /_sim/state`). */
export interface StateSnapshot {
  version: 1;
  nextIds: Record<IdKind, number>;
  pullZones: StoredPullZone[];
  apps: StoredApp[];
  shieldZones: JsonObject[];
  storageZones: StoredStorageZone[];
  videoLibraries: StoredVideoLibrary[];
  wafMetrics: Record<string, JsonObject>;
  /** DNS area (src/simulator/dns-state.ts); absent in files written before it existed. */
  dnsZones?: StoredDnsZone[];
  dnsScans?: Record<string, JsonObject>;
  externalDns?: string[];
  /** Shield rules, access lists, registries, log forwarding (collections.ts); absent in old files. */
  collections?: CollectionsSnapshot;
}

/** Counters behind integer ids. */
export type IdKind =
  | 'pullZone'
  | 'hostname'
  | 'shieldZone'
  | 'storageZone'
  | 'videoLibrary'
  | 'dnsZone'
  | 'dnsRecord'
  | 'wafRule'
  | 'accessList'
  | 'registry'
  | 'edgeScript'
  | 'edgeScriptVariable'
  | 'edgeScriptSecret'
  | 'edgeScriptRelease';

const FIRST_IDS: Record<IdKind, number> = {
  pullZone: 1000,
  hostname: 5000,
  shieldZone: 100,
  storageZone: 1,
  videoLibrary: 1,
  dnsZone: 200,
  dnsRecord: 7000,
  wafRule: 1,
  accessList: 1000,
  registry: 1,
  edgeScript: 300,
  edgeScriptVariable: 20000,
  edgeScriptSecret: 30000,
  edgeScriptRelease: 40000,
};

/** The simulator's mutable platform state. */
export class SimState {
  pullZones = new Map<number, StoredPullZone>();
  apps = new Map<string, StoredApp>();
  shieldZones = new Map<number, JsonObject>();
  storageZones = new Map<number, StoredStorageZone>();
  videoLibraries = new Map<number, StoredVideoLibrary>();
  /** Key `${shieldZoneId}/${ruleId}`. */
  wafMetrics = new Map<string, JsonObject>();
  /** DNS zones by id. */
  dnsZones = new Map<number, StoredDnsZone>();
  /** Latest record scan job by lowercased domain. */
  dnsScans = new Map<string, JsonObject>();
  /** Hostnames declared (admin API) as pointed at the CDN by DNS outside cdn-sim. */
  externalDns = new Set<string>();
  /**
   * Free certificates need DNS that points at the pull zone (live behaviour). Configuration,
   * not state: not saved, and kept by reset().
   */
  certificateDnsCheck = true;
  /**
   * What storage zone records show as `StorageHostname` for DE (storage/storage-host.ts): the
   * platform's name unless the storage listener was given another. Configuration, not state.
   */
  storageHostname = LIVE_STORAGE_HOSTNAME;
  /** Records of the shield rule, access list, registry and log forwarding routes. */
  collections = new Collections();
  nextIds: Record<IdKind, number> = { ...FIRST_IDS };
  /** Incremented on every change. */
  revision = 0;

  /** Returns the next id of a kind. */
  allocateId(kind: IdKind): number {
    const id = this.nextIds[kind];
    this.nextIds[kind] = id + 1;
    return id;
  }

  /** Marks the state changed. */
  touch(): void {
    this.revision++;
  }

  /** Empties everything and seeds the default storage zones and video libraries. */
  reset(): void {
    this.pullZones.clear();
    this.apps.clear();
    this.shieldZones.clear();
    this.storageZones.clear();
    this.videoLibraries.clear();
    this.wafMetrics.clear();
    this.dnsZones.clear();
    this.dnsScans.clear();
    this.externalDns.clear();
    this.collections.clear();
    this.nextIds = { ...FIRST_IDS };
    seedDefaults(this);
    this.touch();
  }

  /** Finds a pull zone by name (case-insensitive, names are global). */
  findPullZoneByName(name: string): StoredPullZone | undefined {
    const wanted = name.toLowerCase();
    for (const zone of this.pullZones.values()) {
      if (String(zone.record.Name).toLowerCase() === wanted) return zone;
    }
    return undefined;
  }

  /** Serializable copy of the whole state. */
  snapshot(): StateSnapshot {
    return structuredClone({
      version: 1,
      nextIds: this.nextIds,
      pullZones: [...this.pullZones.values()],
      apps: [...this.apps.values()],
      shieldZones: [...this.shieldZones.values()],
      storageZones: [...this.storageZones.values()],
      videoLibraries: [...this.videoLibraries.values()],
      wafMetrics: Object.fromEntries(this.wafMetrics),
      dnsZones: [...this.dnsZones.values()],
      dnsScans: Object.fromEntries(this.dnsScans),
      externalDns: [...this.externalDns],
      collections: this.collections.snapshot(),
    });
  }

  /** Replaces the state with a snapshot (already validated by persistence). */
  restore(snapshot: StateSnapshot): void {
    const s = structuredClone(snapshot);
    this.nextIds = { ...FIRST_IDS, ...s.nextIds };
    this.pullZones = new Map(s.pullZones.map((z) => [Number(z.record.Id), z]));
    this.apps = new Map(s.apps.map((a) => [String(a.app.id), a]));
    this.shieldZones = new Map(s.shieldZones.map((z) => [Number(z.shieldZoneId), z]));
    this.storageZones = new Map(s.storageZones.map((z) => [z.Id, z]));
    this.videoLibraries = new Map(s.videoLibraries.map((v) => [v.Id, v]));
    this.wafMetrics = new Map(Object.entries(s.wafMetrics));
    this.dnsZones = new Map((s.dnsZones ?? []).map((z) => [Number(z.zone.Id), z]));
    this.dnsScans = new Map(Object.entries(s.dnsScans ?? {}));
    this.externalDns = new Set(s.externalDns ?? []);
    this.collections.restore(s.collections);
    this.touch();
  }
}

/**
 * Default seed: two storage zones and one video library, so their endpoints have targets, and
 * the platform-managed public container registries.
 */
export function seedDefaults(state: SimState): void {
  for (const name of ['sim-storage', 'sim-logs']) {
    const id = state.allocateId('storageZone');
    state.storageZones.set(id, { Id: id, Name: name });
  }
  const libraryId = state.allocateId('videoLibrary');
  state.videoLibraries.set(libraryId, { Id: libraryId, Name: 'sim-videos', BlockedReferrers: [] });
  seedPublicRegistries(state);
}

/** A state with the default seed. */
export function createState(): SimState {
  const state = new SimState();
  seedDefaults(state);
  return state;
}
