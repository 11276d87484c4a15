/**
 * The live platform's model binding, reproduced: before any handler or the strict document
 * check sees a request, its JSON body and query string are bound to the operation's documented
 * models the way ASP.NET binds them, and rewritten in the documents' own spelling:
 *
 * - member names match regardless of case (`EnableWebPVary` binds to `EnableWebpVary`);
 * - members the model does not declare are dropped (read-model members sent back, `packageId`);
 * - `null` for an optional member the document does not declare nullable counts as absent;
 * - string enum values match regardless of case (`Shared` binds to `shared`);
 * - query parameter names match regardless of case, undeclared ones are dropped, and boolean
 *   values are read regardless of case.
 *
 * Each use of a rule is reported as a note naming it (the `binding` rows of
 * contract-exceptions.ts), so the caller can record that the request did not match the
 * documents exactly. Numbers written as strings and enum names for integer enums are not bound:
 * no document or known client shows them.
 */
import type { BindingRule } from '../contract-exception-types.js';
import type { RouteDef } from '../types.js';
import type { ApiDocuments } from './load.js';
import { findDocumentOperation, jsonContentType } from './request-check.js';
import { resolveSchema, shapeOf, type Shape } from './shape.js';

type Json = Record<string, unknown>;

/** A request after binding: canonical body and query, and what differed from the documents. */
export interface BoundRequest {
  body: unknown;
  query: URLSearchParams;
  /** One line per difference, naming the field and the binding rule applied. */
  notes: string[];
}

/** What binding reads and rewrites of a request. */
export interface BindableRequest {
  body: unknown;
  query: URLSearchParams;
}

interface Parameter {
  name: string;
  in: string;
  schema?: unknown;
}

interface Walk {
  doc: Json;
  notes: string[];
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function note(walk: Walk, rule: BindingRule, text: string): void {
  walk.notes.push(`${text} (live binding: ${rule})`);
}

function join(field: string, name: string): string {
  return field === '' ? name : `${field}.${name}`;
}

/** Binds requests to the documents' models; one per simulator, shapes cached per schema. */
export class Binder {
  private readonly shapes = new WeakMap<object, Shape>();
  private readonly lowerNames = new WeakMap<Shape, Map<string, string>>();

  /** `documents` are the official documents with the schema patches applied. */
  constructor(private readonly documents: ApiDocuments) {}

  /** The request bound to `route`'s documented operation; unchanged when it has none. */
  bind(route: RouteDef, req: BindableRequest): BoundRequest {
    const doc = this.documents[route.area];
    const op = findDocumentOperation(this.documents, route.area, route.method, route.template);
    if (!op) return { body: req.body, query: req.query, notes: [] };
    const walk: Walk = { doc, notes: [] };
    const query = this.bindQuery(walk, (op.parameters as Parameter[] | undefined) ?? [], req.query);
    const schema = bodySchema(op);
    const body =
      schema === undefined || req.body === undefined
        ? req.body
        : this.bindValue(walk, [schema], req.body, '');
    return { body, query, notes: walk.notes };
  }

  private shape(doc: Json, schemas: readonly unknown[]): Shape {
    const key = schemas.length === 1 && isObject(schemas[0]) ? schemas[0] : schemas;
    let shape = this.shapes.get(key);
    if (!shape) {
      shape = shapeOf(doc, schemas);
      this.shapes.set(key, shape);
    }
    return shape;
  }

  private bindValue(
    walk: Walk,
    schemas: readonly unknown[],
    value: unknown,
    field: string,
  ): unknown {
    if (typeof value === 'string') return this.bindEnum(walk, schemas, value, field);
    if (value === null || typeof value !== 'object') return value;
    const shape = this.shape(walk.doc, schemas);
    if (Array.isArray(value)) {
      if (shape.items.length === 0) return value;
      return value.map((item, i) => this.bindValue(walk, shape.items, item, `${field}[${i}]`));
    }
    return shape.free ? value : this.bindObject(walk, shape, value as Json, field);
  }

  private bindEnum(walk: Walk, schemas: readonly unknown[], value: string, field: string): string {
    const values = this.shape(walk.doc, schemas).stringEnum;
    if (values.length === 0 || values.includes(value)) return value;
    const wanted = value.toLowerCase();
    const match = values.find((v) => v.toLowerCase() === wanted);
    if (match === undefined) return value;
    note(walk, 'enum-case', `${field || 'body'} "${value}" is spelled "${match}" in the document`);
    return match;
  }

  private bindObject(walk: Walk, shape: Shape, value: Json, field: string): Json {
    const out: Json = {};
    for (const [name, member] of Object.entries(value)) {
      const target = this.memberName(walk, shape, name, field);
      if (target === undefined) {
        this.bindUndeclared(walk, shape, out, name, member, field);
        continue;
      }
      const at = join(field, name);
      const schemas = shape.properties.get(target) as unknown[];
      if (
        member === null &&
        !shape.required.has(target) &&
        !this.shape(walk.doc, schemas).nullable
      ) {
        note(
          walk,
          'null-optional',
          `${at} is null where the document does not allow null; treated as absent`,
        );
        continue;
      }
      if (target in out) {
        note(walk, 'member-case', `${at} repeats ${target} in another case; the last one is used`);
      }
      out[target] = this.bindValue(walk, schemas, member, join(field, target));
    }
    return out;
  }

  /** A member no property matches: a dictionary entry, or dropped (noted when the model is closed). */
  private bindUndeclared(
    walk: Walk,
    shape: Shape,
    out: Json,
    name: string,
    member: unknown,
    field: string,
  ): void {
    if (shape.additional === true) out[name] = member;
    else if (shape.additional) {
      out[name] = this.bindValue(walk, shape.additional, member, join(field, name));
    } else if (shape.closed) {
      note(
        walk,
        'unknown-member',
        `${join(field, name)} is not a member of the documented model; ignored`,
      );
    }
  }

  /** The declared member `name` binds to: itself, or the one spelled alike regardless of case. */
  private memberName(walk: Walk, shape: Shape, name: string, field: string): string | undefined {
    if (shape.properties.has(name)) return name;
    let index = this.lowerNames.get(shape);
    if (!index) {
      index = new Map([...shape.properties.keys()].map((k) => [k.toLowerCase(), k]));
      this.lowerNames.set(shape, index);
    }
    const target = index.get(name.toLowerCase());
    if (target !== undefined) {
      note(walk, 'member-case', `${join(field, name)} is spelled ${target} in the document`);
    }
    return target;
  }

  private bindQuery(walk: Walk, params: Parameter[], query: URLSearchParams): URLSearchParams {
    if (query.size === 0) return query;
    const declared = params.filter((p) => p.in === 'query');
    const out = new URLSearchParams();
    for (const [name, value] of query) {
      const wanted = name.toLowerCase();
      const param =
        declared.find((p) => p.name === name) ??
        declared.find((p) => p.name.toLowerCase() === wanted);
      if (!param) {
        note(
          walk,
          'query-unknown',
          `query parameter ${name} is not declared by the operation; ignored`,
        );
        continue;
      }
      if (param.name !== name) {
        note(
          walk,
          'query-name-case',
          `query parameter ${name} is spelled ${param.name} in the document`,
        );
      }
      out.append(param.name, this.bindQueryValue(walk, param, value));
    }
    return out;
  }

  private bindQueryValue(walk: Walk, param: Parameter, value: string): string {
    const type = resolveSchema(walk.doc, param.schema)?.type;
    const lower = value.toLowerCase();
    if (type !== 'boolean' || value === lower || (lower !== 'true' && lower !== 'false')) {
      return value;
    }
    note(walk, 'query-boolean-case', `query parameter ${param.name}=${value} is read as ${lower}`);
    return lower;
  }
}

function bodySchema(op: Json): unknown {
  const content = (op.requestBody as Json | undefined)?.content as Json | undefined;
  const type = jsonContentType(content);
  const media = type && content ? content[type] : undefined;
  return isObject(media) ? media.schema : undefined;
}
