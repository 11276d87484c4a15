/**
 * Ownership and adoption, described once for every kind: the spec fields (`adoption`,
 * `deletionPolicy`, an adoption id), `status.ownership`, their TypeScript types and their CRD
 * fragments side by side, and the reader of `spec.adoption`.
 *
 * Adoption of an existing platform resource happens only when the spec asks for it: by id
 * (`spec.pullZoneId`, `spec.appId`, `spec.storageZoneId`) or by name with
 * `spec.adoption.policy: ByName`. An adopted resource is left in place on deletion unless
 * `spec.deletionPolicy: Delete` is set.
 */
import { immutable, type Schema, type SpecFragment } from './crd-schema.js';

/** The only adoption policy: adopt the existing resource with the spec's name. */
export const ADOPT_BY_NAME = 'ByName';

/** What happens to the platform resource when the object is deleted. */
export type DeletionPolicy = 'Delete' | 'Orphan';

/** `spec.adoption` and `spec.deletionPolicy` of a kind whose resources have names. */
export interface AdoptionSpec {
  adoption?: { policy: typeof ADOPT_BY_NAME };
  /** Unset: Delete when the object created the resource, Orphan when it adopted it. */
  deletionPolicy?: DeletionPolicy;
}

/** `spec.adoption` (`what` is e.g. `pull zone`, `nameField` the spec field holding its name). */
function adoptionSchema(what: string, nameField: string): Schema {
  return {
    type: 'object',
    description: `Adopt an existing ${what} instead of creating one. Without this field (or an id) the operator only creates, and never takes over one that already exists.`,
    required: ['policy'],
    properties: {
      policy: {
        type: 'string',
        enum: [ADOPT_BY_NAME],
        description: `ByName: adopt the ${what} named ${nameField}. It must exist, be the only one with that name and not be managed by another object; otherwise the object reports Synced=False and nothing is changed.`,
      },
    },
  };
}

/** `spec.deletionPolicy`: no schema default on purpose (the default depends on adoption). */
function deletionPolicySchema(what: string): Schema {
  return {
    type: 'string',
    enum: ['Delete', 'Orphan'],
    description: `What happens to the ${what} when this resource is deleted: Delete removes it from the platform, Orphan leaves it in place. Unset: Delete when this resource created it, Orphan when it was adopted (status.ownership.deletionPolicy shows the policy in force).`,
  };
}

/** `adoption` and `deletionPolicy` of a kind whose `what` resources are named by `nameField`. */
export function adoptionFragment(what: string, nameField: string): SpecFragment {
  return {
    properties: {
      adoption: adoptionSchema(what, nameField),
      deletionPolicy: deletionPolicySchema(what),
    },
  };
}

/** An immutable adoption id (`appId`, `pullZoneId`, ...): manage an existing platform object. */
export function adoptionIdFragment(
  field: string,
  schema: Schema,
  description: string,
): SpecFragment {
  return {
    properties: {
      [field]: { ...schema, 'x-kubernetes-validations': immutable(field), description },
    },
  };
}

/** The TypeScript type of `status.ownership`, kept by the runtime. */
export type { OwnershipStatus } from '../../runtime/claims-status.js';

/** `status.ownership`: the runtime's `OwnershipStatus` (src/runtime/claims-status.ts). */
export const ownershipStatusSchema: Schema = {
  type: 'object',
  description:
    'How this resource holds its platform resource. Written by the operator through the status subresource only.',
  properties: {
    account: {
      type: 'string',
      description:
        'Fingerprint of the account the resource lives in (a truncated SHA-256 of the API key, never the key).',
    },
    adopted: {
      type: 'boolean',
      description: 'The resource existed before and was adopted (by id or by name).',
    },
    deletionPolicy: {
      type: 'string',
      description: 'The deletion policy in force (spec.deletionPolicy, or its default).',
    },
    createPendingTime: {
      type: 'string',
      format: 'date-time',
      description:
        'A create was started at this time and its id is not recorded yet (crash recovery).',
    },
    createRefusedTime: {
      type: 'string',
      format: 'date-time',
      description:
        'Time of the create-pending marker whose create the platform refused; that marker no longer counts.',
    },
  },
};

/** The adoption policy named in the spec, or undefined when none is asked for. */
export function adoptionPolicyOf(spec: unknown): typeof ADOPT_BY_NAME | undefined {
  if (typeof spec !== 'object' || spec === null) return undefined;
  const adoption = (spec as { adoption?: unknown }).adoption;
  if (typeof adoption !== 'object' || adoption === null) return undefined;
  return (adoption as { policy?: unknown }).policy === ADOPT_BY_NAME ? ADOPT_BY_NAME : undefined;
}

/** The CEL rule of a kind that adopts by `idField` or by name, never both. */
export function adoptOneWayRule(idField: string): Schema {
  return {
    rule: `!(has(self.${idField}) && has(self.adoption))`,
    message: `set either ${idField} (adopt by id) or adoption (adopt by name), not both`,
  };
}
