/** The controllers this operator runs: one per kind of the list that has one. */
import type { ManagedKind } from '../runtime/types.js';
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
