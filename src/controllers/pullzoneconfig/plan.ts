/**
 * What applying a PullZoneConfig would change, computed by the operator's own external client
 * (PullZoneExternal.observe: settings diff, hostname plan, edge rule plan), read-only. Secret
 * values cannot be read here: secret settings are assumed to equal the platform's value, and a
 * custom certificate is assumed new (the operator uploads it once, having no record of it).
 */
import type { CdnClient } from '../../cdn/client.js';
import { diffContext, planOf, type ObjectPlan } from '../shared/manifest-plan.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { parseIntegerId } from '../shared/platform-id.js';
import { SECRET_FIELDS_BY_REF } from './fields.js';
import { PullZoneExternal } from './external.js';
import type { ResolvedSecrets } from './references.js';
import type { PullZoneConfig } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

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

/** See the module comment (`cdnctl diff` of a PullZoneConfig manifest). */
export async function planPullZone(client: CdnClient, obj: PullZoneConfig): Promise<ObjectPlan> {
  const id = parseIntegerId(adoptionIdOf(obj.spec));
  const record =
    id === undefined ? {} : ((await client.getPullZone(id)) as Record<string, unknown>);
  const external = new PullZoneExternal({
    client,
    accountId: 'cdnctl-diff',
    secrets: assumedSecrets(obj, record),
  });
  return planOf(await external.observe(obj, diffContext(id)));
}

/** The kind's `cdnctl diff` planner, under its part's name (kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = planPullZone;
