/**
 * The one shape of an outputs Secret (docs/api.md): `spec.outputSecretRef: {name}` names a
 * Secret the object creates and owns, written only when the spec names one. The kind returns
 * the values as connection details; the runtime publishes them after the claim check and the
 * leader fence (runtime/connection-secret.ts) and reports them in the `OutputsReady`
 * condition. Needs RBAC `create` and `patch` on Secrets (`outputs.enabled` in the Helm chart).
 */
import type { ConnectionSecret, ManagedObject } from '../../runtime/types.js';

/** Condition type reporting the outputs Secret. */
export const OUTPUTS_READY = 'OutputsReady';

/** The outputs Secret of a kind whose spec has `outputSecretRef`: only when it names one. */
export function outputSecretOf<T extends ManagedObject>(): ConnectionSecret<T> {
  return {
    nameOf: (obj) => {
      const ref = obj.spec?.outputSecretRef as { name?: unknown } | undefined;
      return typeof ref?.name === 'string' && ref.name !== '' ? ref.name : undefined;
    },
    conditionType: OUTPUTS_READY,
    what: 'outputs Secret',
    field: 'spec.outputSecretRef.name',
  };
}
