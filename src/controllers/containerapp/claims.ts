/**
 * The claims of a ContainerApp, from the object alone: its application (the runtime's default
 * claim), and the pull zone the platform created for each CDN endpoint that names none of its
 * own (`cdn.pullZoneRef` / `cdn.pullZoneId` name a zone another object manages). Claimed by the
 * application's object against other namespaces (`scope: namespace`), such a zone cannot be
 * adopted by id from another namespace (issue 44); a PullZoneConfig beside the app may manage
 * its settings.
 */
import { defaultClaimsOf } from '../../runtime/claims-policy.js';
import type { ClaimRef, ManagedKind } from '../../runtime/types.js';
import { PULL_ZONE_CLAIM } from '../shared/claim-types.js';
import type { ContainerApp } from './types.js';

/** `containerTemplate/displayName` of the spec's endpoints that bring their own pull zone. */
function ownZoneEndpoints(obj: ContainerApp): Set<string> {
  const out = new Set<string>();
  for (const t of obj.spec?.containerTemplates ?? []) {
    for (const e of t.endpoints ?? []) {
      if (e.cdn?.pullZoneRef !== undefined || e.cdn?.pullZoneId !== undefined)
        out.add(`${t.name}/${e.displayName}`);
    }
  }
  return out;
}

/** See the module comment. */
export function containerAppClaimsOf(
  kind: Pick<ManagedKind, 'kind' | 'idStatusField' | 'specExternalId'>,
  obj: ContainerApp,
): ClaimRef[] {
  const out = defaultClaimsOf(kind, obj);
  const referenced = ownZoneEndpoints(obj);
  for (const c of obj.status?.containers ?? []) {
    for (const e of c.endpoints ?? []) {
      const zone = e.pullZoneId;
      if (!zone || referenced.has(`${c.name}/${e.displayName}`)) continue;
      out.push({ type: PULL_ZONE_CLAIM, id: String(zone), recorded: true, scope: 'namespace' });
    }
  }
  return out;
}
