/**
 * Spec fields every kind shares (credentials, deletion policy, adoption), kept in one place so
 * the generated CRDs agree. A fragment is a set of spec properties (plus required names and
 * CEL rules); a kind's CRD is its own field table with the common fragments merged in front.
 * Fragments maintained by other areas (account reference, adoption and deletion options) are
 * added to COMMON_FRAGMENTS or passed to {@link withFragments} by the kind.
 */

/** A JSON schema node of a CRD. */
export type Schema = Record<string, unknown>;

/** Spec properties contributed by one concern. */
export interface SpecFragment {
  properties: Record<string, Schema>;
  required?: string[];
  rules?: Schema[];
}

/** `credentialsRef`: the Secret key with the API key of the owning account. */
export function credentialsRefFragment(owner: string, keyRequired = false): SpecFragment {
  return {
    properties: {
      credentialsRef: {
        type: 'object',
        description: `Secret key holding the API key of the account that owns the ${owner}. When unset, the operator's default credentials are used.`,
        required: keyRequired ? ['name', 'key'] : ['name'],
        properties: {
          name: {
            type: 'string',
            minLength: 1,
            maxLength: 253,
            description: 'Name of a Secret in the same namespace.',
          },
          key: {
            type: 'string',
            minLength: 1,
            description: keyRequired
              ? 'Key inside the Secret data.'
              : 'Key inside the Secret data (defaults to apiKey).',
          },
        },
      },
    },
  };
}

/** `deletionPolicy`: Delete removes the platform object with the resource, Orphan keeps it. */
export function deletionPolicyFragment(description: string): SpecFragment {
  return {
    properties: {
      deletionPolicy: {
        type: 'string',
        enum: ['Delete', 'Orphan'],
        default: 'Delete',
        description,
      },
    },
  };
}

/** An immutable adoption id (`appId`, ...): manage an existing platform object. */
export function adoptionIdFragment(field: string, schema: Schema, description: string): SpecFragment {
  return {
    properties: {
      [field]: {
        ...schema,
        'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: `${field} is immutable` }],
        description,
      },
    },
  };
}

/** Fragments every kind gets in addition to its own (the lead wires shared ones in here). */
export const COMMON_FRAGMENTS: readonly SpecFragment[] = [];

/** The spec schema with the fragments' properties first, then the kind's own. */
export function withFragments(spec: Schema, fragments: readonly SpecFragment[]): Schema {
  const all = [...fragments, ...COMMON_FRAGMENTS];
  const properties: Record<string, Schema> = Object.assign(
    {},
    ...all.map((f) => f.properties),
    spec.properties as Record<string, Schema>,
  ) as Record<string, Schema>;
  const required = [...all.flatMap((f) => f.required ?? []), ...((spec.required as string[]) ?? [])];
  const rules = [
    ...all.flatMap((f) => f.rules ?? []),
    ...((spec['x-kubernetes-validations'] as Schema[] | undefined) ?? []),
  ];
  return {
    ...spec,
    ...(required.length > 0 ? { required } : {}),
    properties,
    ...(rules.length > 0 ? { 'x-kubernetes-validations': rules } : {}),
  };
}

/** `fragment` with the description of its property `field` replaced. */
export function withDescription(fragment: SpecFragment, field: string, description: string): SpecFragment {
  const current = fragment.properties[field] ?? {};
  return { ...fragment, properties: { ...fragment.properties, [field]: { ...current, description } } };
}

/**
 * `status.plannedChanges`: the fields of the platform resource (`subject`, e.g. "Shield zone")
 * that differ from the spec, each with its live and desired value.
 */
export function plannedChangesSchema(subject: string): Schema {
  return {
    type: 'array',
    description: `${subject} fields (platform names) that differ from the spec: pending drift, or what a dry-run would change.`,
    items: {
      type: 'object',
      required: ['field'],
      properties: {
        field: { type: 'string', description: 'Platform name of the setting.' },
        live: { type: 'string', description: 'Value on the platform.' },
        desired: { type: 'string', description: 'Value the spec asks for.' },
      },
    },
  };
}
