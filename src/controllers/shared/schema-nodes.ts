/**
 * Small CRD schema nodes the kinds' schemas repeat: typed leaves with a description, printer
 * columns of a status member, and lists keyed by a member (`x-kubernetes-list-type: map`).
 * Keys come in the order the generated CRDs have always had, so a kind that adopts a builder
 * renders the same YAML.
 */
import type { PrinterColumn, Schema } from './crd-schema.js';

/** An int64 integer (a platform id or a counter). */
export function int64Schema(description: string): Schema {
  return { type: 'integer', format: 'int64', description };
}

/** A string with no bounds (a status member the platform reports). */
export function stringSchema(description: string): Schema {
  return { type: 'string', description };
}

/** A boolean. */
export function booleanSchema(description: string): Schema {
  return { type: 'boolean', description };
}

/** A `kubectl get` column showing `status.<member>`. */
export function statusColumn(
  name: string,
  type: PrinterColumn['type'],
  description: string,
  member: string,
): PrinterColumn {
  return { name, type, description, jsonPath: `.status.${member}` };
}

/** An object node; `required` and `description` only when given. */
export function objectSchema(
  properties: Record<string, Schema>,
  options: { description?: string; required?: readonly string[] } = {},
): Schema {
  return {
    type: 'object',
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.required === undefined ? {} : { required: [...options.required] }),
    properties,
  };
}

/** What a list says besides its items. */
export interface ListOptions {
  /** The most items the apiserver accepts. */
  maxItems?: number;
  /**
   * The member that keys the items (`name`): the list is a map to server-side apply, so two
   * managers can own different entries. Absent: the list is atomic (ordered, replaced whole).
   */
  key?: string;
}

/** An array of `items`. */
export function listSchema(description: string, items: Schema, options: ListOptions = {}): Schema {
  return {
    type: 'array',
    description,
    ...(options.maxItems === undefined ? {} : { maxItems: options.maxItems }),
    // Without a key the list is one value to server-side apply (ordered, replaced whole).
    ...(options.key === undefined
      ? { 'x-kubernetes-list-type': 'atomic' }
      : { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': [options.key] }),
    items,
  };
}

/** A non-empty string of at most `maxLength` characters (a name, a key). */
export function boundedStringSchema(description: string, maxLength: number): Schema {
  return { type: 'string', minLength: 1, maxLength, description };
}
