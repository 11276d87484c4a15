/**
 * Turns an {@link AppComparison} into `status.plannedChanges` entries (platform field paths
 * with items named, e.g. `containerTemplates[web].imageTag`). Values of variables read from a
 * Secret are never rendered, on either side.
 */
import type { FieldDiff } from '../../runtime/types.js';
import type { ContainerTemplate, ContainerTemplateRead, EndpointRead } from '../../cdn/types.js';
import { REDACTED, renderValue } from '../shared/plan.js';
import type { AppComparison, ContainerMatch } from './diff.js';
import { envKey, liveEndpointToRequest, type DesiredApp } from './mapping.js';
import type { WriteOnlyRecord } from './types.js';

function entry(field: string, live: unknown, desired: unknown): FieldDiff {
  return { field, live: renderValue(live), desired: renderValue(desired) };
}

/** `NAME=value` per variable, secret values replaced by a placeholder. */
export function renderEnv(
  container: string,
  vars: { name: string; value?: string }[] | undefined,
  secretEnv: ReadonlySet<string>,
): string[] | undefined {
  return vars?.map(
    (v) => `${v.name}=${secretEnv.has(envKey(container, v.name)) ? REDACTED : (v.value ?? '')}`,
  );
}

function imageOf(c: ContainerTemplate | ContainerTemplateRead): string {
  return `${c.imageNamespace}/${c.imageName}:${c.imageTag}`;
}

function withoutId(e: EndpointRead): unknown {
  const { id: _id, ...rest } = liveEndpointToRequest(e);
  return rest;
}

function containerEntries(c: ContainerMatch, secretEnv: ReadonlySet<string>): FieldDiff[] {
  const at = `containerTemplates[${c.name}]`;
  if (!c.live) return [entry(at, undefined, `new container ${imageOf(c.desired!)}`)];
  if (!c.desired) return [entry(at, `container ${c.live.id} ${imageOf(c.live)}`, undefined)];
  const out: FieldDiff[] = c.changedFields.map((f) =>
    f === 'environmentVariables'
      ? entry(
          `${at}.${f}`,
          renderEnv(c.name, c.live!.environmentVariables, secretEnv),
          renderEnv(c.name, c.desired!.environmentVariables, secretEnv),
        )
      : entry(`${at}.${f}`, c.live![f], c.desired![f]),
  );
  for (const e of c.endpoints) {
    if (e.desired && e.live && !e.changed) continue;
    out.push(entry(`${at}.endpoints[${e.name}]`, e.live && withoutId(e.live), e.desired));
  }
  return out;
}

function regionEntries(
  cmp: AppComparison,
  desired: DesiredApp,
  live: Record<string, unknown>,
  recorded: WriteOnlyRecord | undefined,
): FieldDiff[] {
  return cmp.regionFields.map((f) =>
    entry(
      `regionSettings.${f}`,
      f === 'nodeSelectors' ? recorded?.nodeSelectors : live[f],
      desired.regionSettings?.[f],
    ),
  );
}

type LiveTop = {
  name: string;
  autoScaling?: unknown;
  repositorySettings?: unknown;
  regionSettings?: unknown;
};

function topEntries(
  cmp: AppComparison,
  desired: DesiredApp,
  live: LiveTop,
  recorded: WriteOnlyRecord | undefined,
): FieldDiff[] {
  const out: FieldDiff[] = [];
  if (cmp.name) out.push(entry('name', live.name, desired.name));
  if (cmp.autoScaling) out.push(entry('autoScaling', live.autoScaling, desired.autoScaling));
  const region = (live.regionSettings ?? {}) as Record<string, unknown>;
  out.push(...regionEntries(cmp, desired, region, recorded));
  if (cmp.repositorySettings) {
    out.push(entry('repositorySettings', live.repositorySettings, desired.repositorySettings));
  }
  if (cmp.terminationGracePeriodSeconds) {
    const was = recorded?.terminationGracePeriodSeconds;
    out.push(entry('terminationGracePeriodSeconds', was, desired.terminationGracePeriodSeconds));
  }
  return out;
}

/** The plan: one entry per differing field or added/removed item. */
export function describeChanges(
  cmp: AppComparison,
  desired: DesiredApp,
  live: LiveTop,
  recorded: WriteOnlyRecord | undefined,
): FieldDiff[] {
  const out: FieldDiff[] = topEntries(cmp, desired, live, recorded);
  for (const c of cmp.containers) out.push(...containerEntries(c, desired.secretEnv));
  for (const v of cmp.volumes) {
    if (v.desired && v.live && !v.changed) continue;
    out.push(
      entry(
        `volumes[${v.name}]`,
        v.live && { sizeGigabytes: v.live.size },
        v.desired && { sizeGigabytes: v.desired.size },
      ),
    );
  }
  return out;
}
