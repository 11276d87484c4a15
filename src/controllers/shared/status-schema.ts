/**
 * The status every reconciled kind shares, described once: conditions, observedGeneration,
 * lastSyncTime, plannedChanges (written by the runtime, src/runtime/types.ts `ManagedStatus`)
 * and ownership (src/runtime/claims-status.ts), as one TypeScript type and one CRD fragment.
 * A kind adds its own observed fields.
 */
import type { ManagedStatus } from '../../runtime/types.js';
import type { Schema } from './crd-schema.js';
import { ownershipStatusSchema, type OwnershipStatus } from './ownership-schema.js';

/** The status of a reconciled kind; each kind's status type extends it. */
export interface KindStatus extends ManagedStatus {
  ownership?: OwnershipStatus;
}

/** `status.conditions` (metav1.Condition, one entry per type); `description` names the kind's types. */
export function conditionsSchema(description: string): Schema {
  return {
    type: 'array',
    description,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['type'],
    items: {
      type: 'object',
      description: 'One condition of the resource.',
      required: ['type', 'status'],
      properties: {
        type: { type: 'string', description: 'Condition type (Ready, Synced, ...).' },
        status: {
          type: 'string',
          enum: ['True', 'False', 'Unknown'],
          description: 'Whether the condition holds.',
        },
        reason: { type: 'string', description: 'Machine-readable reason of the last transition.' },
        message: { type: 'string', description: 'Human-readable detail.' },
        lastTransitionTime: {
          type: 'string',
          format: 'date-time',
          description: 'When the status last changed.',
        },
        observedGeneration: {
          type: 'integer',
          format: 'int64',
          description: 'The metadata.generation the condition was computed for.',
        },
      },
    },
  };
}

/** What a kind says about its status; {@link managedStatusSchema} adds the shared fields. */
export interface StatusOptions {
  /** What the status is (`Observed state of the pull zone.`). */
  description: string;
  /** The platform resource in words, lowercase (`pull zone`). */
  resource: string;
  /** The condition types the kind reports and what each means. */
  conditions: string;
  /** Said after the plannedChanges description (e.g. how secret values show). */
  plannedChangesNote?: string;
  /** The kind's own observed fields. */
  properties: Record<string, Schema>;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `status.plannedChanges`: the fields of the platform resource that differ from the spec. */
function plannedChangesSchema(resource: string, note?: string): Schema {
  return {
    type: 'array',
    description: `${capitalised(resource)} fields (platform names) that differ from the spec: pending drift, or what a dry-run would change.${note ? ` ${note}` : ''}`,
    items: {
      type: 'object',
      description: 'One field whose live value differs from the desired one.',
      required: ['field'],
      properties: {
        field: { type: 'string', description: 'Platform name of the field.' },
        live: { type: 'string', description: 'Value on the platform.' },
        desired: { type: 'string', description: 'Value the spec asks for.' },
      },
    },
  };
}

/** The whole `status` of a reconciled kind: ownership, its own fields, then the runtime's. */
export function managedStatusSchema(o: StatusOptions): Schema {
  return {
    type: 'object',
    description: o.description,
    properties: {
      ownership: ownershipStatusSchema,
      ...o.properties,
      conditions: conditionsSchema(o.conditions),
      observedGeneration: {
        type: 'integer',
        format: 'int64',
        description: 'The metadata.generation the operator last reconciled.',
      },
      lastSyncTime: {
        type: 'string',
        format: 'date-time',
        description: `When the operator last compared the ${o.resource} with the spec.`,
      },
      plannedChanges: plannedChangesSchema(o.resource, o.plannedChangesNote),
    },
  };
}
