/**
 * The list of kinds: one line per kind (see kind-module.ts). The operator runs a controller for
 * each kind that has one, hack/generate-crds.ts writes each CRD into crds/ (from which the
 * chart's RBAC, the kustomize base and the Argo CD health keys are derived), and cdnctl, the
 * bench, chaos, the demo and the tests take their kinds from here. Order matters only to
 * `cdnctl export` (a kind comes after the kinds it needs).
 */
import { CDN_ACCOUNT } from './cdnaccount/kind.js';
import { CDN_POLICY } from './cdnpolicy/kind.js';
import { CONTAINER_APP } from './containerapp/kind.js';
import { CONTAINER_REGISTRY } from './containerregistry/kind.js';
import { DNS_RECORD } from './dnsrecord/kind.js';
import { DNS_ZONE } from './dnszone/kind.js';
import { EDGE_SCRIPT } from './edgescript/kind.js';
import type { KindModule } from './kind-module.js';
import { apiVersionOf } from './kind-names.js';
import { PULL_ZONE_CONFIG } from './pullzoneconfig/kind.js';
import { SHIELD_ACCESS_LIST } from './shieldaccesslist/kind.js';
import { SHIELD_POLICY } from './shieldpolicy/kind.js';
import { SHIELD_RATE_LIMIT } from './shieldratelimit/kind.js';
import { SHIELD_WAF_RULE } from './shieldwafrule/kind.js';
import { STORAGE_ZONE } from './storagezone/kind.js';
import { VIDEO_LIBRARY } from './videolibrary/kind.js';

export const KINDS: readonly KindModule[] = [
  PULL_ZONE_CONFIG,
  SHIELD_POLICY,
  SHIELD_WAF_RULE,
  SHIELD_RATE_LIMIT,
  SHIELD_ACCESS_LIST,
  CONTAINER_REGISTRY,
  CONTAINER_APP,
  STORAGE_ZONE,
  DNS_ZONE,
  DNS_RECORD,
  EDGE_SCRIPT,
  VIDEO_LIBRARY,
  CDN_ACCOUNT,
  CDN_POLICY,
];

/** The kind named `kind` (`PullZoneConfig`) in `kinds`, if any. */
export function findKind(
  kind: string | undefined,
  kinds: readonly KindModule[] = KINDS,
): KindModule | undefined {
  return kinds.find((k) => k.kind === kind);
}

/**
 * The reconciled kinds whose example works with the chart's defaults (it sits at the top of
 * examples/, what `kubectl apply -f examples/` applies): the demo, the quick start and the Helm
 * e2e apply these and wait for them to be Ready.
 */
export function exampleKinds(kinds: readonly KindModule[] = KINDS): KindModule[] {
  return kinds.filter(
    (k) => k.controller !== undefined && k.example !== undefined && !k.example.includes('/'),
  );
}

/** The `apiVersion` of the kind named `kind` (its family's group); throws for a kind not listed. */
export function apiVersionOfKind(kind: string, kinds: readonly KindModule[] = KINDS): string {
  const found = findKind(kind, kinds);
  if (!found) throw new Error(`cannot find kind ${kind}: not in the list of kinds`);
  return apiVersionOf(found);
}
