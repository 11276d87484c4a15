/** The kinds this operator runs. main.ts registers every kind returned here. */
import type { ManagedKind } from '../runtime/types.js';
import type { ControllerDeps } from './shared/deps.js';

/** Builds one ManagedKind per CRD served by the operator. */
export function createManagedKinds(deps: ControllerDeps): ManagedKind[] {
  void deps;
  return [];
}
