/** The ContainerRegistry custom resource as the controller reads it. */
import type { ManagedObject } from '../../runtime/types.js';
import type { KindNames } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const CONTAINER_REGISTRY_NAMES: KindNames = {
  kind: 'ContainerRegistry',
  plural: 'containerregistries',
  shortNames: ['creg'],
  scope: 'Namespaced',
};

/** Registry types of the platform's `RegistryType` (the CRD reads the list from the document). */
export type RegistryTypeName = 'dockerHub' | 'gitHub' | 'bunnyRegistry';

/** A key of a Secret in the object's namespace. */
export interface SecretKeyRef {
  name: string;
  key: string;
}

/** `spec` of a ContainerRegistry (crd.ts describes every field). */
export interface ContainerRegistrySpec extends AccountSpec, AdoptionSpec {
  /** Platform display name; defaults to metadata.name. */
  displayName?: string;
  /** Registry type (`RegistryType` of the add/update model). */
  type: RegistryTypeName;
  /** User name of the registry credentials. */
  username: string;
  /** The Secret key holding the password (read, never written). */
  passwordSecretRef: SecretKeyRef;
  /** Adopt the registry with this id. */
  registryId?: number;
}

/** `status` of a ContainerRegistry. */
export interface ContainerRegistryStatus extends KindStatus {
  registryId?: number | string;
  displayName?: string;
  hostName?: string;
  username?: string;
  /**
   * `sha256:` fingerprint (salted with the object's uid) of the password last applied or
   * accepted at adoption: detects a rotation; not reversible.
   */
  passwordFingerprint?: string;
}

export interface ContainerRegistry extends ManagedObject {
  spec?: ContainerRegistrySpec & Record<string, unknown>;
  status?: ContainerRegistryStatus;
}
