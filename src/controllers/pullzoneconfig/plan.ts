/**
 * What applying a PullZoneConfig would change, computed by the operator's own external client
 * (PullZoneExternal.observe: settings diff, hostname plan, edge rule plan), read-only. Secret
 * values cannot be read here: secret settings are assumed to equal the platform's value, and a
 * custom certificate is assumed new (the operator uploads it once, having no record of it). A
 * manifest linking a platform-made zone (`spec.pullZoneFrom`) is compared with the zone of its
 * owner's manifest in the same run (linkedZone), else not compared; never a create.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { ManagedObject } from '../../runtime/types.js';
import { readIdPath } from '../kit/link-path.js';
import { diffContext, planOf, type ObjectPlan, type PlanContext } from '../shared/manifest-plan.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { parseIntegerId } from '../shared/platform-id.js';
import { SECRET_FIELDS_BY_REF } from './fields.js';
import { PullZoneExternal } from './external.js';
import type { ResolvedSecrets } from './references.js';
import type { PullZoneConfig } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';
import { linkSpecOf, type LinkSpec } from '../kit/linked-resource.js';
import { manifestIdPathOf, ownerMarkOf } from './owner-marks.js';
import { PULL_ZONE_LINK } from './pull-zone-from.js';

/** Secret settings: assumed equal to the platform's value (cdnctl cannot read Secrets). */
function assumedSettings(
  obj: PullZoneConfig,
  record: Record<string, unknown>,
): Map<string, string> {
  const settings = new Map<string, string>();
  for (const key of Object.keys(obj.spec?.settings ?? {})) {
    const f = SECRET_FIELDS_BY_REF.get(key);
    if (!f?.secret) continue;
    const live = record[f.api];
    settings.set(f.api, typeof live === 'string' ? live : '');
  }
  return settings;
}

/** Custom certificates: unknown content, so the operator's first pass uploads them. */
function assumedCertificates(obj: PullZoneConfig): ResolvedSecrets['tls'] {
  const tls: ResolvedSecrets['tls'] = new Map();
  for (const h of obj.spec?.hostnames ?? []) {
    if (h.certificate?.type !== 'Custom') continue;
    tls.set(h.hostname.toLowerCase(), { certificate: '', certificateKey: '', hash: 'from-secret' });
  }
  return tls;
}

function assumedSecrets(obj: PullZoneConfig, record: Record<string, unknown>): ResolvedSecrets {
  return { settings: assumedSettings(obj, record), tls: assumedCertificates(obj) };
}

const skipped = (note: string): ObjectPlan => ({ action: 'skipped', diffs: [], note });

/** The ids of the zones the owner manifest of `link` names or the platform marks as its. */
async function ownerZoneIds(
  client: CdnClient,
  link: LinkSpec,
  owner: ManagedObject,
  ownerId: string,
): Promise<number[]> {
  const path = manifestIdPathOf(link.kind);
  const ids = path
    ? readIdPath(owner.spec, path, link).map((m) => parseIntegerId(m.id))
    : (await client.listPullZones())
        .filter((z) => {
          const mark = ownerMarkOf(z);
          return mark?.kind === link.kind && mark.ownerId === ownerId;
        })
        .map((z) => parseIntegerId(z.Id));
  return [...new Set(ids.filter((id): id is number => id !== undefined))];
}

/**
 * The zone of a manifest linking its owner (`spec.pullZoneFrom`): the owner's manifest in the
 * same run, by the id it adopts, and the zone the platform marks as that owner's (owner-marks.ts);
 * a plan `skipped` with the reason when there is not exactly one. Never a create.
 */
async function linkedZone(
  client: CdnClient,
  link: LinkSpec,
  ctx: PlanContext,
): Promise<number | ObjectPlan> {
  const label = `spec.pullZoneFrom: ${link.kind} ${link.name}`;
  const owner = ctx.objectsOf(link.kind).find((o) => o.metadata.name === link.name);
  const ownerId = owner && adoptionIdOf(owner.spec);
  if (!owner || ownerId === undefined)
    return skipped(
      `${label} is not among the compared manifests with an adopted id; applying never creates a pull zone`,
    );
  const ids = await ownerZoneIds(client, link, owner, ownerId);
  if (ids.length === 1) return ids[0]!;
  return skipped(
    `${label}: ${ids.length} pull zones are its; the operator reads the one from its status`,
  );
}

/** See the module comment (`cdnctl diff` of a PullZoneConfig manifest). */
export async function planPullZone(
  client: CdnClient,
  obj: PullZoneConfig,
  ctx: PlanContext,
): Promise<ObjectPlan> {
  const link = linkSpecOf(obj, PULL_ZONE_LINK);
  const linked = link ? await linkedZone(client, link, ctx) : undefined;
  if (typeof linked === 'object') return linked;
  const id = linked ?? parseIntegerId(adoptionIdOf(obj.spec));
  const record =
    id === undefined ? {} : ((await client.getPullZone(id)) as Record<string, unknown>);
  const external = new PullZoneExternal({
    client,
    accountId: 'cdnctl-diff',
    secrets: assumedSecrets(obj, record),
  });
  const seen = await external.observe(obj, diffContext(id));
  if (linked !== undefined && !seen.exists)
    return skipped(
      `spec.pullZoneFrom: pull zone ${linked} does not exist; applying never creates one`,
    );
  return planOf(seen);
}

/** The kind's `cdnctl diff` planner, under its part's name (kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = planPullZone;
