/**
 * What this operator runs, from the list of kinds: a controller per kind that has one, and the
 * cluster-scoped kinds the runtime watches beside them.
 */
import type { ClusterKind, ManagedKind } from '../runtime/types.js';
import type { KindModule } from './kind-module.js';
import { KINDS } from './kinds.js';
import type { ControllerDeps } from './shared/deps.js';
import { withSecretRedaction } from './shared/secret-registration.js';

/**
 * Builds one ManagedKind per kind of `kinds` that has a controller, in list order; every kind
 * registers the Secret values it reads for redaction (see shared/secret-registration.ts).
 * main.ts registers every kind returned here.
 */
export async function createManagedKinds(
  deps: ControllerDeps,
  kinds: readonly KindModule[] = KINDS,
): Promise<ManagedKind[]> {
  const out: ManagedKind[] = [];
  for (const k of kinds) {
    if (!k.controller) continue;
    const create = await k.controller();
    out.push(withSecretRedaction(create(deps)));
  }
  return out;
}

/**
 * The cluster-scoped kinds of `kinds` (CdnAccounts and the Namespaces their selectors read),
 * each once (by controller name), in list order. main.ts passes them to the runtime.
 */
export async function createClusterKinds(
  deps: Pick<ControllerDeps, 'operatorNamespace'>,
  kinds: readonly KindModule[] = KINDS,
): Promise<ClusterKind[]> {
  const out = new Map<string, ClusterKind>();
  for (const k of kinds) {
    if (!k.clusterKinds) continue;
    const create = await k.clusterKinds();
    for (const c of create(deps)) if (!out.has(c.name)) out.set(c.name, c);
  }
  return [...out.values()];
}
