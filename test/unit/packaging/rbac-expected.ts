/**
 * The operator's least-privilege permissions, as the issue lists them. The chart tests compare
 * the rendered rules with this list, and the e2e RBAC proof checks that `kubectl auth can-i
 * --list` for the chart's ServiceAccount shows nothing beyond it. The kinds come from the list
 * of kinds (src/controllers/kinds.ts); the chart reads them from crds/ on its own, so the
 * comparison checks the chart's derivation.
 */
import { apiGroupOf } from '../../../src/controllers/kind-names.js';
import { KINDS } from '../../../src/controllers/kinds.js';

/** The plurals of the kinds of `scope` by API group, groups and plurals sorted (the chart's order). */
function pluralsOf(scope: 'Namespaced' | 'Cluster'): [string, string[]][] {
  const byGroup = new Map<string, string[]>();
  for (const k of KINDS.filter((kind) => kind.scope === scope)) {
    byGroup.set(apiGroupOf(k), [...(byGroup.get(apiGroupOf(k)) ?? []), k.plural]);
  }
  return [...byGroup.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, plurals]) => [group, plurals.sort()]);
}

/** Plurals of the reconciled (namespaced) kinds, by group. */
export const KIND_PLURALS: readonly [string, string[]][] = pluralsOf('Namespaced');
/** Cluster-scoped kinds the operator only reads, by group. */
export const READ_ONLY_PLURALS: readonly [string, string[]][] = pluralsOf('Cluster');

/** Per group: `verbs` on the objects, then `statusVerbs` on /status and `finalizerVerbs` on /finalizers. */
function kindRules(
  groups: readonly [string, string[]][],
  verbs: string[],
  statusVerbs: string[],
  finalizerVerbs?: string[],
): Rule[] {
  return groups.flatMap(([group, plurals]) => [
    { apiGroups: [group], resources: [...plurals], verbs },
    { apiGroups: [group], resources: plurals.map((p) => `${p}/status`), verbs: statusVerbs },
    ...(finalizerVerbs
      ? [
          {
            apiGroups: [group],
            resources: plurals.map((p) => `${p}/finalizers`),
            verbs: finalizerVerbs,
          },
        ]
      : []),
  ]);
}

/** One RBAC policy rule. */
export interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

/** Read Secrets/ConfigMaps; write Secrets only with outputs. */
export function expectedSecretRules(outputs: boolean): Rule[] {
  return [
    { apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: ['get', 'list', 'watch'] },
    ...(outputs ? [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'patch'] }] : []),
  ];
}

/**
 * Rules in the ClusterRole (or each watched namespace's Role). Secrets and ConfigMaps only
 * where the admin granted them (a watched namespace, or secretAccess.clusterWide).
 */
export function expectedWorkloadRules(outputs: boolean, secrets = false): Rule[] {
  return [
    ...kindRules(KIND_PLURALS, ['get', 'list', 'watch', 'patch'], ['patch'], ['update']),
    ...(secrets ? expectedSecretRules(outputs) : []),
    { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
  ];
}

/** The accounts ClusterRole: CdnAccounts and Namespace labels (watched). */
export function expectedAccountRules(): Rule[] {
  return [
    ...kindRules(READ_ONLY_PLURALS, ['get', 'list', 'watch'], ['patch']),
    { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
  ];
}

/** The release namespace's Role for CdnAccount credentials Secrets. */
export function expectedAccountSecretRules(): Rule[] {
  return [
    { apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: ['get', 'list', 'watch'] },
  ];
}

/** Rules of the leader-election Role (release namespace). */
export function expectedLeaseRules(leaseName: string): Rule[] {
  return [
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
    {
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      resourceNames: [leaseName],
      verbs: ['get', 'update'],
    },
  ];
}

/**
 * What every authenticated user may do on a default cluster (system:basic-user,
 * system:discovery, system:public-info-viewer): `can-i --list` shows these for any account.
 */
export const AUTHENTICATED_DEFAULTS: ReadonlySet<string> = new Set([
  'selfsubjectreviews.authentication.k8s.io create',
  'selfsubjectaccessreviews.authorization.k8s.io create',
  'selfsubjectrulesreviews.authorization.k8s.io create',
]);

/**
 * Flattens rules to `resource.group verb` strings (with `[name]` for resourceNames), spelled
 * as `kubectl auth can-i --list` prints them: `pullzoneconfigs.pullzones.cdn.operator.io/status`.
 */
export function flattenRules(rules: Rule[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules) {
    for (const group of r.apiGroups) {
      for (const resource of r.resources) {
        const [plural, sub] = resource.split('/');
        const res = `${plural}${group ? `.${group}` : ''}${sub ? `/${sub}` : ''}`;
        for (const verb of r.verbs) {
          if (r.resourceNames?.length)
            for (const n of r.resourceNames) out.add(`${res}[${n}] ${verb}`);
          else out.add(`${res} ${verb}`);
        }
      }
    }
  }
  return out;
}
