/**
 * Ownership and adoption: the CRD schema fragments every kind shares, and the reader of
 * `spec.adoption`. The generated CRDs (PullZoneConfig, ContainerApp, ShieldPolicy) import these
 * fragments (ShieldPolicy only status.ownership: a shield zone is found through its pull zone
 * and reset, not deleted); a unit test keeps the shipped YAML equal to them.
 *
 * Adoption of an existing platform resource happens only when the spec asks for it: by id
 * (`spec.pullZoneId`, `spec.appId`) or by name with `spec.adoption.policy: ByName`. An
 * adopted resource is left in place on deletion unless `spec.deletionPolicy: Delete` is set.
 */

/** A JSON schema fragment (structural OpenAPI v3 as Kubernetes accepts it). */
export type SchemaFragment = Record<string, unknown>;

/** The only adoption policy: adopt the existing resource with the spec's name. */
export const ADOPT_BY_NAME = 'ByName';

/** `spec.adoption` of a kind whose resources have names (`what` is e.g. `pull zone`). */
export function adoptionSchema(what: string, nameField: string): SchemaFragment {
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

/** `spec.deletionPolicy` of PullZoneConfig and ContainerApp: no schema default on purpose. */
export function deletionPolicySchema(what: string): SchemaFragment {
  return {
    type: 'string',
    enum: ['Delete', 'Orphan'],
    description: `What happens to the ${what} when this resource is deleted: Delete removes it from the platform, Orphan leaves it in place. Unset: Delete when this resource created it, Orphan when it was adopted (status.ownership.deletionPolicy shows the policy in force).`,
  };
}

/** `status.ownership`, written by the operator only (see src/runtime/claims-status.ts). */
export const ownershipStatusSchema: SchemaFragment = {
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
    createPending: {
      type: 'string',
      format: 'date-time',
      description:
        'A create was started at this time and its id is not recorded yet (crash recovery).',
    },
    createRefused: {
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
