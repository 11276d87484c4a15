/**
 * The spec of a reconciled kind, described once: the account reference, adoption by id and by
 * name, then the kind's own fields. Every kind that manages one platform resource merges the
 * same three fragments (account-schema.ts, ownership-schema.ts) in the same order, so the
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
import { adoptionFragment, adoptionIdFragment } from './ownership-schema.js';
import { managedStatusSchema, type StatusOptions } from './status-schema.js';

/** A positive int64 platform id: the schema of most adoption ids. */
const POSITIVE_ID: Schema = { type: 'integer', format: 'int64', minimum: 1 };

/** How objects of a kind adopt an existing platform resource. */
export interface AdoptionOptions {
  /** The immutable id field (`storageZoneId`). */
  idField: string;
  /** The id's schema (default: a positive int64). */
  idSchema?: Schema;
  /** What setting the id does (the field's description; `Immutable.` ends it). */
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
    adoptionIdFragment(adoption.idField, adoption.idSchema ?? POSITIVE_ID, adoption.idDescription),
    adoptionFragment(adoption.what, adoption.nameField),
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
