/**
 * The official documents as one Ajv instance, with the simulator's deviations applied.
 *
 * OpenAPI 3.0 specifics handled: `nullable: true` becomes a JSON-schema type union (or an
 * `anyOf` with null around `$ref`/`oneOf`/`allOf`), `#/components/...` refs resolve inside the
 * area's document, and the .NET number formats (int32, int64, double, float, decimal) are known.
 * Validators are compiled on first use and cached per schema pointer, so a request costs one
 * map lookup plus the validation itself.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Area } from '../types.js';
import type { ApiDocuments } from './load.js';
import type { SchemaPatchDeviation } from '../contract-exception-types.js';

type Json = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_LIMIT = 2 ** 63;

/** One schema problem, named the way the area's error bodies name fields. */
export interface SchemaProblem {
  /** JSON pointer of the offending value (`/containerTemplates/0/name`), `/` for the root. */
  pointer: string;
  message: string;
  /** JSON-schema keyword that failed (`maximum`, `required`, `additionalProperties`, ...). */
  keyword: string;
}

function nullUnion(obj: Json): unknown {
  delete obj.nullable;
  if (typeof obj.type === 'string') {
    obj.type = [obj.type, 'null'];
    if (Array.isArray(obj.enum)) obj.enum = [...(obj.enum as unknown[]), null];
    return obj;
  }
  if (obj.$ref !== undefined || obj.oneOf !== undefined || obj.allOf !== undefined) {
    return { anyOf: [obj, { type: 'null' }] };
  }
  return obj;
}

/** Converts OpenAPI 3.0 `nullable` into JSON-schema null unions, recursively, in place. */
export function convertNullable(node: unknown): unknown {
  if (Array.isArray(node)) {
    node.forEach((item, i) => (node[i] = convertNullable(item)));
    return node;
  }
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Json;
  for (const [key, value] of Object.entries(obj)) obj[key] = convertNullable(value);
  return obj.nullable === true ? nullUnion(obj) : obj;
}

/** Applies one schema-patch deviation to a (cloned) document. */
export function applySchemaPatch(doc: Json, patch: SchemaPatchDeviation): void {
  const schemas = (doc.components as Json).schemas as Record<string, Json>;
  const base = patch.define ? structuredClone(schemas[patch.define]) : schemas[patch.schema];
  if (!base) throw new Error(`cannot apply deviation: no schema ${patch.define ?? patch.schema}`);
  const properties = {
    ...(base.properties as Json),
    ...patch.addProperties,
    ...patch.setProperties,
  };
  const required = (base.required as string[] | undefined) ?? [];
  const drop = patch.dropRequired ?? [];
  const kept = required.filter((name) => !drop.includes(name));
  schemas[patch.schema] = { ...base, properties, required: kept };
  if (kept.length === 0) delete schemas[patch.schema]?.required;
}

/** A copy of `documents` with the schema-patch deviations applied (nothing else changed). */
export function patchDocuments(
  documents: ApiDocuments,
  patches: readonly SchemaPatchDeviation[],
): ApiDocuments {
  const out: Partial<ApiDocuments> = {};
  for (const area of Object.keys(documents) as Area[]) {
    const doc = structuredClone(documents[area]);
    for (const patch of patches) if (patch.area === area) applySchemaPatch(doc, patch);
    out[area] = doc;
  }
  return out as ApiDocuments;
}

function createAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX,
  });
  ajv.addFormat('int64', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && Math.abs(n) < INT64_LIMIT,
  });
  for (const name of ['double', 'float', 'decimal']) {
    ajv.addFormat(name, { type: 'number', validate: () => true });
  }
  // .NET Guid (the DNS record scan's JobId): without it Ajv warns and checks nothing.
  ajv.addFormat('guid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  return ajv;
}

/** Escapes one JSON-pointer segment. */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Id under which an area's document is registered in Ajv. */
export function documentId(area: Area): string {
  return `openapi-${area}.json`;
}

/** `node` with every local `$ref` (`#/...`) made absolute to the document registered as `docId`. */
export function rewriteRefs(node: unknown, docId: string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, docId));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? `${docId}${value}`
        : rewriteRefs(value, docId);
  }
  return out;
}

function toProblem(e: ErrorObject): SchemaProblem {
  const params = e.params as { additionalProperty?: string; missingProperty?: string };
  const extra = params.additionalProperty ?? params.missingProperty;
  const pointer =
    extra !== undefined ? `${e.instancePath}/${escapePointer(extra)}` : e.instancePath;
  const message =
    e.keyword === 'additionalProperties'
      ? 'is not a property of the documented model'
      : e.keyword === 'required'
        ? 'is required'
        : (e.message ?? e.keyword);
  return { pointer: pointer || '/', message, keyword: e.keyword };
}

/** Noise of nullable wrappers: "must be null", "must match a schema in anyOf", ... */
function isCombinatorNoise(p: SchemaProblem): boolean {
  return p.keyword === 'anyOf' || p.keyword === 'oneOf' || p.message === 'must be null';
}

/** Keeps distinct, specific problems (Ajv also reports every branch of a nullable union). */
function dedupe(problems: SchemaProblem[]): SchemaProblem[] {
  const seen = new Set<string>();
  const specific = problems.filter((p) => !isCombinatorNoise(p));
  return (specific.length > 0 ? specific : problems).filter((p) => {
    const key = `${p.pointer} ${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The documents compiled for validation. */
export class DocumentSchemas {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    readonly documents: ApiDocuments,
    patches: readonly SchemaPatchDeviation[],
  ) {
    this.ajv = createAjv();
    const patched = patchDocuments(documents, patches);
    for (const area of Object.keys(patched) as Area[]) {
      this.ajv.addSchema(convertNullable(patched[area]) as Json, documentId(area));
    }
  }

  /** Validates `value` against the schema at `pointer` (`openapi-mc.json#/...`). */
  validatePointer(pointer: string, value: unknown): SchemaProblem[] {
    return this.run(pointer, () => ({ $ref: pointer }), value);
  }

  /** Validates `value` against an inline schema whose refs resolve in the area's document. */
  validateInline(key: string, area: Area, schema: Json, value: unknown): SchemaProblem[] {
    // Parameter schemas are not part of the converted document: convert their nullables here.
    const converted = (): Json =>
      rewriteRefs(convertNullable(structuredClone(schema)), documentId(area)) as Json;
    return this.run(key, converted, value);
  }

  private run(key: string, schema: () => Json, value: unknown): SchemaProblem[] {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema());
      this.validators.set(key, validate);
    }
    return validate(value) ? [] : dedupe((validate.errors ?? []).map(toProblem));
  }
}
