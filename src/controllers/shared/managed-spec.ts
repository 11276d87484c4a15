/**
 * The spec of a reconciled kind, described once: the account reference, adoption (by id or by
 * name), then the kind's own fields. Every kind that manages one platform resource merges the
 * same two fragments (account-schema.ts, ownership-schema.ts) in the same order, so the
 * generated CRDs list those fields alike.
 */
import { accountFragment } from './account-schema.js';
import {
  managedColumns,
  withFragments,
  type KindSchema,
  type PrinterColumn,
  type Schema,
} from './crd-schema.js';
import { adoptionFragment } from './ownership-schema.js';
import { managedStatusSchema, type StatusOptions } from './status-schema.js';

/** A positive int64 platform id: the schema of most adoption ids. */
const POSITIVE_ID: Schema = { type: 'integer', format: 'int64', minimum: 1 };

/** How objects of a kind adopt an existing platform resource (`spec.adoption`). */
export interface AdoptionOptions {
  /** The schema of `spec.adoption.id`, the platform id (default: a positive int64). */
  idSchema?: Schema;
  /** What adopting by id does (the description of `spec.adoption.id`; `Immutable.` ends it). */
  idDescription: string;
  /** The platform resource in words, lowercase (`storage zone`). */
  what: string;
  /** The spec fields adoption by name matches (`spec.name (or metadata.name)`). */
  nameField: string;
}

/** The spec of a reconciled kind: account, adoption by id and by name, then `own`'s fields. */
export function managedSpec(own: Schema, adoption: AdoptionOptions): Schema {
  return withFragments(own, [
    accountFragment(),
    adoptionFragment(adoption.what, adoption.nameField, {
      schema: adoption.idSchema ?? POSITIVE_ID,
      description: adoption.idDescription,
    }),
  ]);
}

/** What a reconciled kind says about its CRD; {@link managedKindSchema} adds the rest. */
export interface ManagedKindOptions extends AdoptionOptions {
  /** What one object is (the top of `kubectl explain <kind>`). */
  description: string;
  /** The kind's own spec fields and rules. */
  spec: Schema;
  /** The kind's status; `resource` defaults to {@link AdoptionOptions.what}. */
  status: Omit<StatusOptions, 'resource'> & { resource?: string };
  /** The kind's own `kubectl get` columns (between SYNCED and AGE). */
  columns: readonly PrinterColumn[];
}

/**
 * The schema of a reconciled kind listed in the `cdn` category whose objects need a spec: the
 * managed spec ({@link managedSpec}), the managed status and columns.
 */
export function managedKindSchema(o: ManagedKindOptions): KindSchema {
  return {
    description: o.description,
    requireSpec: true,
    categories: ['cdn'],
    spec: managedSpec(o.spec, o),
    status: managedStatusSchema({ resource: o.what, ...o.status }),
    columns: managedColumns(...o.columns),
  };
}
