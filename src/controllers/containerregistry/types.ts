/** The ContainerRegistry custom resource as the controller reads it (its fields: fields.ts). */
import type { ManagedObject } from '../../runtime/types.js';
import type { SpecOf } from '../kit/fields.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { CONTAINER_REGISTRY_FIELDS } from './fields.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const CONTAINER_REGISTRY_NAMES: NamedResourceKind = {
  kind: 'ContainerRegistry',
  plural: 'containerregistries',
  shortNames: ['creg'],
  scope: 'Namespaced',
  family: 'containers',
  platformNames: 'shared',
};

/** `spec` of a ContainerRegistry: the field table's members and the shared parts. */
export type ContainerRegistrySpec = SpecOf<typeof CONTAINER_REGISTRY_FIELDS> &
  AccountSpec &
  AdoptionSpec & {
    /** The Secret key holding the password (read, never written). */
    passwordSecretRef: { name: string; key: string };
  };

/** `status` of a ContainerRegistry. */
export interface ContainerRegistryStatus extends KindStatus {
  registryId?: number | string;
  name?: string;
  hostname?: string;
  username?: string;
  /** Fingerprint of the password last applied or accepted (credentials.ts): not reversible. */
  passwordFingerprint?: string;
}

export interface ContainerRegistry extends ManagedObject {
  spec?: ContainerRegistrySpec & Record<string, unknown>;
  status?: ContainerRegistryStatus;
}
