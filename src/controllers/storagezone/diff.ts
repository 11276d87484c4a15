/**
 * Pure comparison of a StorageZone spec with the live zone: the plan entries, the one update
 * body (`POST /storagezone/{id}`) that fixes them, and the differences no update can fix.
 *
 * - region, zone tier and (an explicit spec.name) name are fixed when the zone is created: a difference is reported
 *   as a problem (the object cannot be Synced), never "fixed" by a call;
 * - replication regions are only ever added (the platform cannot remove one): regions in the
 *   spec and not live are added, live regions not in the spec are left alone (status lists
 *   them). The update sends the whole wanted list (live + missing), as the platform replaces it;
 * - rewrite404To200 and custom404FilePath are compared only when set in the spec.
 */
import type { StorageZone as StorageZoneRecord, StorageZoneSettings } from '../../cdn/types.js';
import type { FieldDiff } from '../../runtime/types.js';
import { renderValue } from '../shared/plan.js';
import { samePlatformName } from '../../cdn/platform-names.js';
import { s3TypeName, tierName } from './mapping.js';
import type { StorageZone } from './types.js';

/** Result of {@link diffStorageZone}. */
export interface StorageZoneDiff {
  /** Plan entries (platform field names). */
  diffs: FieldDiff[];
  /** The update body; empty when nothing can be updated. */
  update: StorageZoneSettings;
  /** Differences in fields fixed at creation (each a full sentence naming the spec field). */
  immutable: string[];
}

function immutableProblems(obj: StorageZone, record: StorageZoneRecord): string[] {
  const spec = obj.spec ?? {};
  const problems: string[] = [];
  // Only an explicit spec.name is compared: a zone adopted by id keeps its own name, whatever
  // metadata.name is.
  const name = spec.name;
  if (name !== undefined && record.Name && !samePlatformName('storageZone', record.Name, name)) {
    problems.push(`spec.name is ${name} but the zone is named ${record.Name}`);
  }
  if (spec.region !== undefined && record.Region && spec.region !== record.Region) {
    problems.push(`spec.region is ${spec.region} but the zone's main region is ${record.Region}`);
  }
  return [...problems, ...createOnlyProblems(obj, record)];
}

/** Tier and S3 support: set when the zone is created, never changed afterwards. */
function createOnlyProblems(obj: StorageZone, record: StorageZoneRecord): string[] {
  const spec = obj.spec ?? {};
  const problems: string[] = [];
  const liveTier = tierName(record.ZoneTier);
  if (spec.zoneTier !== undefined && spec.zoneTier !== liveTier) {
    problems.push(`spec.zoneTier is ${spec.zoneTier} but the zone's tier is ${liveTier}`);
  }
  const liveType = s3TypeName(record.StorageZoneType);
  if (spec.storageZoneType !== undefined && spec.storageZoneType !== liveType) {
    const wanted = spec.storageZoneType;
    problems.push(`spec.storageZoneType is ${wanted} but the zone's type is ${liveType}`);
  }
  return problems;
}

function diffReplication(obj: StorageZone, record: StorageZoneRecord, out: StorageZoneDiff): void {
  const wanted = obj.spec?.replicationRegions;
  if (wanted === undefined) return;
  const live = record.ReplicationRegions ?? [];
  const missing = wanted.filter((r) => !live.includes(r));
  if (missing.length === 0) return;
  const merged = [...live, ...missing.filter((r, i) => missing.indexOf(r) === i)];
  out.update.ReplicationZones = merged;
  out.diffs.push({
    field: 'ReplicationRegions',
    live: renderValue(live),
    desired: renderValue(merged),
  });
}

function diffScalar(
  out: StorageZoneDiff,
  field: 'Rewrite404To200' | 'Custom404FilePath',
  want: boolean | string | undefined,
  have: unknown,
): void {
  if (want === undefined) return;
  const live = have ?? (field === 'Rewrite404To200' ? false : '');
  if (want === live) return;
  (out.update as Record<string, unknown>)[field] = want;
  out.diffs.push({ field, live: renderValue(have), desired: renderValue(want) });
}

/** Compares the spec with the live zone (see the module comment). */
export function diffStorageZone(obj: StorageZone, record: StorageZoneRecord): StorageZoneDiff {
  const out: StorageZoneDiff = { diffs: [], update: {}, immutable: immutableProblems(obj, record) };
  diffReplication(obj, record, out);
  diffScalar(out, 'Rewrite404To200', obj.spec?.rewrite404To200, record.Rewrite404To200);
  diffScalar(out, 'Custom404FilePath', obj.spec?.custom404FilePath, record.Custom404FilePath);
  return out;
}
