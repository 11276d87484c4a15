/**
 * What applying a ContainerApp would change, computed by the operator's own external client
 * (ContainerAppExternal.observe: compareApp + describeChanges), read-only. Values from Secrets
 * and ConfigMaps cannot be read here: each is assumed to equal the live variable's value (a
 * variable the application lacks shows as added, its value redacted). `pullZoneRef` resolves to
 * the `spec.adoption.id` of that PullZoneConfig among the compared manifests, `registryRef` to the
 * `spec.adoption.id` of that ContainerRegistry (an app naming one without it is not compared).
 * `logForwarding` is compared member by member (one more read, only for a manifest with the
 * block); its token cannot be read here either and is assumed to be the platform's.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { App } from '../../cdn/types.js';
import {
  diffContext,
  adoptedIdsByName,
  type ObjectPlan,
  type PlanContext,
} from '../shared/manifest-plan.js';
import { CONTAINER_REGISTRY_NAMES } from '../containerregistry/types.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { ContainerAppExternal } from './external.js';
import { envKey, type ResolvedRefs } from './mapping.js';
import type { ContainerApp } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Placeholder of a referenced value the application does not have yet. */
const FROM_REFERENCE = '<value from reference>';

function liveEnv(app: App | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of app?.containerTemplates ?? []) {
    for (const v of t.environmentVariables ?? []) out.set(envKey(t.name, v.name), v.value ?? '');
  }
  return out;
}

function assumedRefs(
  obj: ContainerApp,
  app: App | undefined,
  ids: Pick<ResolvedRefs, 'pullZones' | 'registries'>,
): ResolvedRefs {
  const live = liveEnv(app);
  const env = new Map<string, string>();
  const secretEnv = new Set<string>();
  for (const c of obj.spec.containerTemplates ?? []) {
    for (const v of c.environmentVariables ?? []) {
      if (!v.valueFrom) continue;
      const key = envKey(c.name, v.name);
      env.set(key, live.get(key) ?? FROM_REFERENCE);
      if (v.valueFrom.secretKeyRef) secretEnv.add(key);
    }
  }
  return { env, secretEnv, ...ids };
}

/** See the module comment (`cdnctl diff` of a ContainerApp manifest). */
export async function planContainerApp(
  client: CdnClient,
  obj: ContainerApp,
  ctx: PlanContext,
): Promise<ObjectPlan> {
  const pullZones = adoptedIdsByName(ctx.objectsOf(PULL_ZONE_CONFIG_NAMES.kind));
  const registries = adoptedIdsByName(ctx.objectsOf(CONTAINER_REGISTRY_NAMES.kind));
  const unresolved = (obj.spec.containerTemplates ?? [])
    .map((c) => c.registryRef?.name)
    .find((name) => name !== undefined && !registries.has(name));
  if (unresolved !== undefined) {
    const note = `registryRef ${unresolved} names no compared ContainerRegistry with spec.adoption.id`;
    return { action: 'skipped', diffs: [], note };
  }
  const appId = adoptionIdOf(obj.spec);
  const app = appId === undefined ? undefined : await client.getApp(appId);
  const external = new ContainerAppExternal(
    client,
    () => Promise.resolve(assumedRefs(obj, app, { pullZones, registries })),
    'cdnctl-diff',
  );
  const seen = await external.observe(obj, diffContext(appId));
  if (!seen.exists) return { action: 'create', diffs: [] };
  return {
    action: seen.diff.length > 0 ? 'update' : 'none',
    diffs: seen.diff,
    id: seen.externalId ?? appId,
  };
}

/** The kind's `cdnctl diff` planner, under its part's name (kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = planContainerApp;
