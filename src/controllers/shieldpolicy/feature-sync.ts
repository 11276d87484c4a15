/**
 * Observes and applies the zone-wide features of features.ts for one reconcile pass: observe
 * reads the object of each feature the spec manages (one GET each, none for an unmanaged
 * feature) and answers it with its target ({@link FeaturesSeen}, handed to update through the
 * observation), so apply can send complete nested objects without reading again. A write the
 * zone's plan does not allow becomes PlanNotSufficient.
 */
import type { CallOptions } from '../../cdn/options.js';
import type {
  BotDetection,
  BotDetectionUpdate,
  UploadScanning,
  UploadScanningUpdate,
} from '../../cdn/security-types.js';
import type { FieldDiff } from '../../runtime/types.js';
import {
  buildFeaturePatch,
  desiredFeature,
  diffFeature,
  FEATURES,
  featureFieldName,
  resetFeature,
  type FeatureDef,
  type FeatureKey,
  type FeatureValues,
  type WireObject,
} from './features.js';
import { isPlanRefusal, withPlanCheck } from './plan-limits.js';
import type { ShieldPolicySpec } from './types.js';

/** The client methods of the feature routes (satisfied by `CdnClient`). */
export interface FeatureApi {
  getBotDetection(shieldZoneId: number, opts?: CallOptions): Promise<BotDetection>;
  updateBotDetection(
    shieldZoneId: number,
    patch: BotDetectionUpdate,
    opts?: CallOptions,
  ): Promise<BotDetection>;
  getUploadScanning(shieldZoneId: number, opts?: CallOptions): Promise<UploadScanning>;
  updateUploadScanning(
    shieldZoneId: number,
    patch: UploadScanningUpdate,
    opts?: CallOptions,
  ): Promise<UploadScanning>;
}

/** Reads one feature object. */
export async function readFeature(
  api: FeatureApi,
  key: FeatureKey,
  shieldZoneId: number,
  opts: CallOptions,
): Promise<WireObject> {
  const live =
    key === 'botDetection'
      ? await api.getBotDetection(shieldZoneId, opts)
      : await api.getUploadScanning(shieldZoneId, opts);
  return live;
}

async function writeFeature(
  api: FeatureApi,
  key: FeatureKey,
  shieldZoneId: number,
  patch: WireObject,
  opts: CallOptions,
): Promise<void> {
  if (key === 'botDetection') await api.updateBotDetection(shieldZoneId, patch, opts);
  else await api.updateUploadScanning(shieldZoneId, patch, opts);
}

/** What each feature should be: the spec's values, or the reset values while deleting. */
export type FeatureTarget = 'desired' | 'reset';

/** One feature as observe read it, with its target. */
interface SeenFeature {
  def: FeatureDef;
  target: FeatureValues;
  live: WireObject;
}

/** What observe read of the features, for apply or reset in the same pass. */
export type FeaturesSeen = ReadonlyMap<FeatureKey, SeenFeature>;

/** The differences of the managed features from the target, and what was read. */
export interface FeaturesObserved {
  diffs: FieldDiff[];
  seen: FeaturesSeen;
}

function targetOf(
  def: FeatureDef,
  spec: ShieldPolicySpec,
  target: FeatureTarget,
): FeatureValues | undefined {
  return target === 'desired' ? desiredFeature(def, spec) : resetFeature(def, spec);
}

/** The PATCH of each seen feature with a difference in `diff`. */
function pendingPatches(
  seen: FeaturesSeen,
  diff: readonly FieldDiff[],
): Array<{ key: FeatureKey; patch: WireObject }> {
  const out: Array<{ key: FeatureKey; patch: WireObject }> = [];
  for (const { def, target, live } of seen.values()) {
    const names = new Set(def.fields.map((f) => featureFieldName(def, f)));
    const mine = diff.filter((d) => names.has(d.field));
    if (mine.length > 0)
      out.push({ key: def.key, patch: buildFeaturePatch(def, target, live, mine) });
  }
  return out;
}

/** Reads every managed feature and answers its differences from the target. */
export async function observeFeatures(
  api: FeatureApi,
  spec: ShieldPolicySpec,
  shieldZoneId: number,
  target: FeatureTarget,
  opts: CallOptions,
): Promise<FeaturesObserved> {
  const seen = new Map<FeatureKey, SeenFeature>();
  const diffs: FieldDiff[] = [];
  for (const def of FEATURES) {
    const values = targetOf(def, spec, target);
    if (!values || values.size === 0) continue;
    const live = await readFeature(api, def.key, shieldZoneId, opts);
    seen.set(def.key, { def, target: values, live });
    diffs.push(...diffFeature(def, values, live));
  }
  return { diffs, seen };
}

/**
 * Sends one PATCH per feature with a difference in `diff` (entries of the observe that read
 * `seen`); answers the features written.
 */
export async function applyFeatures(
  api: FeatureApi,
  seen: FeaturesSeen,
  diff: readonly FieldDiff[],
  shieldZoneId: number,
  plan: { planType?: string; retryAfterMs?: number },
  opts: CallOptions,
): Promise<FeatureKey[]> {
  const written: FeatureKey[] = [];
  for (const { key, patch } of pendingPatches(seen, diff)) {
    await withPlanCheck(key, plan.planType, plan.retryAfterMs, () =>
      writeFeature(api, key, shieldZoneId, patch, opts),
    );
    written.push(key);
  }
  return written;
}

/**
 * Like {@link applyFeatures}, for a reset (deletion): a feature the zone's plan refuses to
 * change is skipped, not an error (a plan that lost a feature must not keep a deletion
 * forever); answers the features written and the features refused.
 */
export async function resetFeatures(
  api: FeatureApi,
  seen: FeaturesSeen,
  diff: readonly FieldDiff[],
  shieldZoneId: number,
  opts: CallOptions,
): Promise<{ written: FeatureKey[]; refused: FeatureKey[] }> {
  const written: FeatureKey[] = [];
  const refused: FeatureKey[] = [];
  for (const { key, patch } of pendingPatches(seen, diff)) {
    try {
      await writeFeature(api, key, shieldZoneId, patch, opts);
      written.push(key);
    } catch (err) {
      if (!isPlanRefusal(err)) throw err;
      refused.push(key);
    }
  }
  return { written, refused };
}
