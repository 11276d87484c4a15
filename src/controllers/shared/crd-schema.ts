/**
 * How a kind's CustomResourceDefinition is built: the kind describes its spec, status and
 * printer columns ({@link KindSchema}, in its own `crd.ts`), and {@link buildCrd} wraps them in
 * the CRD object every kind shares (names from the kind module, the group, one served version
 * with the status subresource). Spec parts every kind shares are fragments merged with
 * {@link withFragments} (account-schema.ts, ownership-schema.ts); the status parts come from
 * status-schema.ts. hack/generate-crds.ts renders the result into crds/.
 */
import { API_VERSION } from '../../api-group.js';
import { apiGroupOf, apiVersionOf, crdNameOf, type KindNames } from '../kind-names.js';

/** A JSON schema node of a CRD (structural OpenAPI v3 as Kubernetes accepts it). */
export type Schema = Record<string, unknown>;

/** One of the official API documents. */
export type DocumentArea = 'core' | 'mc' | 'shield';

/** Keys a document property may give a CRD field. */
export type BoundKey =
  | 'minimum'
  | 'maximum'
  | 'minLength'
  | 'maxLength'
  | 'minItems'
  | 'maxItems'
  | 'pattern'
  | 'enum'
  | 'format';

/**
 * Reads bounds, enums and listed values from the official API documents at generation time
 * (hack/crds/document-bounds.ts), so a CRD cannot drift from what the platform accepts. Kinds
 * receive it as a parameter: nothing under src/ reads the documents.
 */
export interface DocumentBounds {
  /** The bounds of `Schema.property` (or of the component `Schema`), e.g. `{minimum: 1, maximum: 1000}`. */
  bounds(area: DocumentArea, path: string, take?: readonly BoundKey[]): Schema;
  /** Names of an integer enum component (`x-enum-varnames`), in number order. */
  enumNames(area: DocumentArea, schema: string): string[];
  /** Names of an integer enum component spelled `x-enumNames` (the core document). */
  xEnumNames(area: DocumentArea, schema: string): string[];
  /** The codes a property's description lists as `(Possible values: A, B, C)`. */
  listedValues(area: DocumentArea, path: string): string[];
  /** The property names of an object `Schema.property` (e.g. a rule's request variables). */
  propertyNames(area: DocumentArea, path: string): string[];
}

/** One `kubectl get` column. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'boolean' | 'date' | 'number';
  jsonPath: string;
  description?: string;
}

/** What a kind says about its CRD; {@link buildCrd} adds the rest. */
export interface KindSchema {
  /** What one object is (the top of `kubectl explain <kind>`). */
  description: string;
  /** `spec`, shared fragments merged in ({@link withFragments}). */
  spec: Schema;
  /** `status` (status-schema.ts builds the shared part). */
  status: Schema;
  /** `kubectl get` columns, in order ({@link managedColumns}). */
  columns: readonly PrinterColumn[];
  /** The apiserver refuses an object without `spec`. */
  requireSpec?: boolean;
  /** CEL rules on the whole object (e.g. rules about `metadata.name`). */
  rules?: readonly Schema[];
  /** `kubectl get <category>` lists the kind (`cdn`). */
  categories?: readonly string[];
}

/** Spec properties contributed by one concern (account, adoption, ...). */
export interface SpecFragment {
  properties: Record<string, Schema>;
  required?: string[];
  rules?: Schema[];
}

/** The spec schema with the fragments' properties first, then the kind's own. */
export function withFragments(spec: Schema, fragments: readonly SpecFragment[]): Schema {
  const properties = Object.assign(
    {},
    ...fragments.map((f) => f.properties),
    spec.properties as Record<string, Schema>,
  ) as Record<string, Schema>;
  const required = [
    ...fragments.flatMap((f) => f.required ?? []),
    ...((spec.required as string[] | undefined) ?? []),
  ];
  const rules = [
    ...fragments.flatMap((f) => f.rules ?? []),
    ...((spec['x-kubernetes-validations'] as Schema[] | undefined) ?? []),
  ];
  return {
    ...spec,
    ...(required.length > 0 ? { required } : {}),
    properties,
    ...(rules.length > 0 ? { 'x-kubernetes-validations': rules } : {}),
  };
}

/** The name of a Kubernetes object (a DNS subdomain: 1 to 253 characters). */
export function objectNameSchema(description: string): Schema {
  return { type: 'string', minLength: 1, maxLength: 253, description };
}

/** A reference by name to one object in the same namespace (`{name}`), e.g. `pullZoneRef`. */
export function nameRefSchema(description: string, nameDescription: string): Schema {
  return {
    type: 'object',
    description,
    required: ['name'],
    properties: { name: objectNameSchema(nameDescription) },
  };
}

/**
 * A required key of a Secret in the same namespace (`{name, key}`) whose value the operator
 * reads as stored, e.g. a password or token (`passwordSecretRef`, `tokenSecretRef`).
 */
export function secretKeyRefSchema(description: string, keyDescription: string): Schema {
  return {
    type: 'object',
    description,
    required: ['name', 'key'],
    properties: {
      name: objectNameSchema('Name of the Secret.'),
      key: { type: 'string', minLength: 1, maxLength: 253, description: keyDescription },
    },
  };
}

/**
 * One key of a ConfigMap or Secret in the same namespace (`{name, key}`): a reference by shape
 * to the object's own namespace only.
 */
export function keyRefSchema(source: 'ConfigMap' | 'Secret', description: string): Schema {
  return {
    type: 'object',
    description,
    required: ['name', 'key'],
    properties: {
      name: objectNameSchema(`Name of a ${source} in the same namespace.`),
      key: objectNameSchema(`Key inside the ${source} data.`),
    },
  };
}

/** A CEL rule that makes a field immutable once set. */
export function immutable(field: string): Schema[] {
  return [{ rule: 'self == oldSelf', message: `${field} is immutable` }];
}

/** Ready and Synced conditions, for the printer columns. */
const READY: PrinterColumn = {
  name: 'READY',
  type: 'string',
  jsonPath: ".status.conditions[?(@.type=='Ready')].status",
};
const SYNCED: PrinterColumn = {
  name: 'SYNCED',
  type: 'string',
  jsonPath: ".status.conditions[?(@.type=='Synced')].status",
};
const AGE: PrinterColumn = { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/** READY, SYNCED, the kind's own columns, AGE: the columns of a reconciled kind. */
export function managedColumns(...own: PrinterColumn[]): PrinterColumn[] {
  return [READY, SYNCED, ...own, AGE];
}

/** READY, the kind's own columns, AGE: the columns of a kind with a Ready condition only. */
export function readyColumns(...own: PrinterColumn[]): PrinterColumn[] {
  return [...own, READY, AGE];
}

/** The whole CustomResourceDefinition object of `kind`. */
export function buildCrd(kind: KindNames, schema: KindSchema): Schema {
  const openAPIV3Schema: Schema = {
    type: 'object',
    description: schema.description,
    ...(schema.requireSpec ? { required: ['spec'] } : {}),
    properties: {
      apiVersion: {
        type: 'string',
        description: `API version of this object (${apiVersionOf(kind)}).`,
      },
      kind: { type: 'string', description: `Kind of this object (${kind.kind}).` },
      metadata: { type: 'object' },
      spec: schema.spec,
      status: schema.status,
    },
    ...(schema.rules?.length ? { 'x-kubernetes-validations': [...schema.rules] } : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdNameOf(kind) },
    spec: {
      group: apiGroupOf(kind),
      names: {
        kind: kind.kind,
        listKind: `${kind.kind}List`,
        plural: kind.plural,
        singular: kind.kind.toLowerCase(),
        shortNames: [...kind.shortNames],
        ...(schema.categories?.length ? { categories: [...schema.categories] } : {}),
      },
      scope: kind.scope,
      versions: [
        {
          name: API_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: schema.columns.map((c) => ({ ...c })),
          schema: { openAPIV3Schema },
        },
      ],
    },
  };
}
