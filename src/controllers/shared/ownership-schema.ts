/**
 * Ownership and adoption, described once for every kind: the spec fields (`adoption`,
 * `deletionPolicy`), `status.ownership`, their TypeScript types and their CRD fragments side by
 * side, and the readers of `spec.adoption`.
 *
 * Adoption of an existing platform resource happens only when the spec asks for it, in one
 * block: by id (`spec.adoption: {policy: ById, id: 42}`) or by name (`spec.adoption: {policy:
 * ByName}`). An adopted resource is left in place on deletion unless `spec.deletionPolicy:
 * Delete` is set.
 */
import type { LegacyFieldMove } from '../kind-module.js';
import {
  MANAGEMENT_POLICY_MANAGE,
  MANAGEMENT_POLICY_OBSERVE,
} from '../../runtime/management-policy.js';
import { immutable, type Schema, type SpecFragment } from './crd-schema.js';

/** Adoption policy: adopt the existing resource whose platform id is `spec.adoption.id`. */
export const ADOPT_BY_ID = 'ById';

/** Adoption policy: adopt the existing resource with the spec's name. */
export const ADOPT_BY_NAME = 'ByName';

/** The adoption policies `spec.adoption.policy` accepts. */
export type AdoptionPolicy = typeof ADOPT_BY_ID | typeof ADOPT_BY_NAME;

/**
 * `spec.adoption`: by id (`Id` is the kind's id type: a number, or a string) or by name. One
 * shape like the CRD's, which requires `id` with ById and refuses it with ByName (CEL).
 */
export interface Adoption<Id = number> {
  policy: AdoptionPolicy;
  id?: Id;
}

/** What happens to the platform resource when the object is deleted. */
export type DeletionPolicy = 'Delete' | 'Orphan';

/** `spec.adoption` and `spec.deletionPolicy` of a kind whose resources have names and ids. */
export interface AdoptionSpec<Id = number> {
  adoption?: Adoption<Id>;
  /** Manage (default) or Observe (src/runtime/management-policy.ts). */
  managementPolicy?: 'Manage' | 'Observe';
  /** Unset: Delete when the object created the resource, Orphan when it adopted it. */
  deletionPolicy?: DeletionPolicy;
}

/** How a kind's resources are adopted by id: the id's schema and what setting it does. */
export interface AdoptionIdOptions {
  /** The platform id's schema (an int64, or a string pattern). */
  schema: Schema;
  /** What setting the id does (the field's description; `Immutable.` ends it). */
  description: string;
}

/** `spec.adoption` (`what` is e.g. `pull zone`, `nameField` the spec field holding its name). */
function adoptionSchema(what: string, nameField: string, id: AdoptionIdOptions): Schema {
  return {
    type: 'object',
    description: `Adopt an existing ${what} instead of creating one. Without this field the operator only creates, and never takes over one that already exists.`,
    required: ['policy'],
    properties: {
      policy: {
        type: 'string',
        enum: [ADOPT_BY_ID, ADOPT_BY_NAME],
        description: `ById: adopt the ${what} whose id is adoption.id. ByName: adopt the ${what} named ${nameField} (it must be the only one with that name). Either way it must exist and not be managed by another object; otherwise the object reports Synced=False and nothing is changed.`,
      },
      id: {
        ...id.schema,
        'x-kubernetes-validations': immutable('adoption.id'),
        description: id.description,
      },
    },
    'x-kubernetes-validations': [
      {
        rule: `self.policy != '${ADOPT_BY_ID}' || has(self.id)`,
        message: `adoption.id is required with policy ${ADOPT_BY_ID}`,
      },
      {
        rule: `self.policy == '${ADOPT_BY_ID}' || !has(self.id)`,
        message: `adoption.id is set only with policy ${ADOPT_BY_ID}`,
      },
    ],
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

/**
 * `adoption` and `deletionPolicy` of a kind whose `what` resources are named by `nameField` and
 * adopted by an `id` of the kind's own id schema.
 */
export function adoptionFragment(
  what: string,
  nameField: string,
  id: AdoptionIdOptions,
): SpecFragment {
  return {
    properties: {
      adoption: adoptionSchema(what, nameField, id),
      deletionPolicy: deletionPolicySchema(what),
      managementPolicy: managementPolicySchema(what),
    },
    rules: MANAGEMENT_POLICY_RULES,
  };
}

/** `spec.managementPolicy` (src/runtime/management-policy.ts). */
function managementPolicySchema(what: string): Schema {
  return {
    type: 'string',
    enum: [MANAGEMENT_POLICY_MANAGE, MANAGEMENT_POLICY_OBSERVE],
    description: `Manage (the default): the operator creates, changes and deletes the ${what} as the spec says. Observe: the operator only finds the ${what} named by spec.adoption (by id or by name), reports it in status and lets other objects reference it; it never creates, changes or deletes it, the other spec fields are not applied, deletionPolicy does not apply (nothing is ever deleted) and the object does not keep another object from managing it. A ${what} managed by an object of another namespace cannot be observed. Requires spec.adoption. Immutable.`,
  };
}

/** Observe needs adoption (what to find); the policy is fixed at creation. */
const MANAGEMENT_POLICY_RULES: Schema[] = [
  {
    rule: `!has(self.managementPolicy) || self.managementPolicy != '${MANAGEMENT_POLICY_OBSERVE}' || has(self.adoption)`,
    message: `managementPolicy ${MANAGEMENT_POLICY_OBSERVE} requires spec.adoption (ById or ByName): it names the resource to observe`,
  },
  {
    rule: `(has(self.managementPolicy) && self.managementPolicy == '${MANAGEMENT_POLICY_OBSERVE}') == (has(oldSelf.managementPolicy) && oldSelf.managementPolicy == '${MANAGEMENT_POLICY_OBSERVE}')`,
    message: `managementPolicy is immutable: create another object to manage (with spec.adoption) or to observe the resource`,
  },
];

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

/** `spec.adoption` of `spec`, or undefined when the spec has no adoption block. */
function adoptionOf(spec: unknown): { policy?: unknown; id?: unknown } | undefined {
  if (typeof spec !== 'object' || spec === null) return undefined;
  const adoption = (spec as { adoption?: unknown }).adoption;
  return typeof adoption === 'object' && adoption !== null ? adoption : undefined;
}

/** The adoption policy named in the spec, or undefined when none is asked for. */
export function adoptionPolicyOf(spec: unknown): AdoptionPolicy | undefined {
  const policy = adoptionOf(spec)?.policy;
  return policy === ADOPT_BY_ID || policy === ADOPT_BY_NAME ? policy : undefined;
}

/**
 * The platform id the spec adopts (`spec.adoption: {policy: ById, id}`) as a string, or
 * undefined: the one reader of adoption by id, for every kind (the runtime's `specExternalId`,
 * the identity ladder, `cdnctl diff`).
 */
export function adoptionIdOf(spec: unknown): string | undefined {
  const adoption = adoptionOf(spec);
  if (adoption?.policy !== ADOPT_BY_ID) return undefined;
  const id = adoption.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : undefined;
}

/** The spec members that adopt the resource with platform id `id` (what `cdnctl export` writes). */
export function adoptionById<Id>(id: Id): { adoption: { policy: typeof ADOPT_BY_ID; id: Id } } {
  return { adoption: { policy: ADOPT_BY_ID, id } };
}

/**
 * The `cdnctl migrate` move of a v1alpha1 adoption id (`spec.<field>`, e.g. `pullZoneId`) into
 * `spec.adoption: {policy: ById, id}` (a kind's `legacyMoves`, docs/api.md).
 */
export function legacyAdoptionIdMove(field: string): LegacyFieldMove {
  return { from: `spec.${field}`, to: 'spec.adoption.id', also: { policy: ADOPT_BY_ID } };
}
