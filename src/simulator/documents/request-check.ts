/**
 * Checks one request against its operation in the official document: path and query
 * parameters (type, format, range, pattern, required) and the JSON body (required members,
 * enums, `additionalProperties: false`, ranges, patterns). Problems come back as pointers the
 * caller turns into the area's error body.
 */
import type { Area } from '../types.js';
import type { ApiDocuments } from './load.js';
import { DocumentSchemas, documentId, escapePointer, type SchemaProblem } from './schemas.js';

type Json = Record<string, unknown>;

/** What is checked of a request. */
export interface CheckedRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

/** Outcome of a check: problems, or the operation is not in the document at all. */
export type RequestCheck =
  { kind: 'checked'; problems: SchemaProblem[] } | { kind: 'undocumented' };

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}

/** Path as the area's document writes it: the Magic Containers document omits `/mc`. */
export function documentPath(area: Area, template: string): string {
  return area === 'mc' && template.startsWith('/mc/') ? template.slice(3) : template;
}

/** The first member of a combinator (`{oneOf: [{nullable: true, oneOf: [{$ref}]}]}`). */
function firstBranch(schema: Json | undefined): Json | undefined {
  if (!schema || schema.type !== undefined || schema.$ref !== undefined) return undefined;
  const list = (schema.oneOf ?? schema.anyOf ?? schema.allOf) as Json[] | undefined;
  return list?.[0];
}

function schemaType(schemas: DocumentSchemas, area: Area, schema: Json | undefined): unknown {
  const branch = firstBranch(schema);
  if (branch) return schemaType(schemas, area, branch);
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema?.type;
  const name = ref.split('/').pop() ?? '';
  const components = (schemas.documents[area].components as Json).schemas as Json;
  return (components[name] as Json | undefined)?.type;
}

/** A parameter's text as the JSON value its schema types it (numbers, booleans). */
function coerce(text: string, type: unknown): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text))
    return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The route template of a document path: the inverse of documentPath. */
export function routeTemplate(area: Area, path: string): string {
  return area === 'mc' ? `/mc${path}` : path;
}

/** The operation object of `method template` in the area's document, if it has one. */
export function findDocumentOperation(
  documents: ApiDocuments,
  area: Area,
  method: string,
  template: string,
): Json | undefined {
  const paths = documents[area].paths as Record<string, Json | undefined>;
  return paths[documentPath(area, template)]?.[method.toLowerCase()] as Json | undefined;
}

/** Finds the document's operation object for `method template`. */
export function findOperation(
  schemas: DocumentSchemas,
  area: Area,
  method: string,
  template: string,
): Json | undefined {
  return findDocumentOperation(schemas.documents, area, method, template);
}

/**
 * The parameters a request can carry: query parameters, and path parameters the path template
 * names. A path parameter the template does not name cannot be sent (OpenAPI requires each to
 * match a template expression); the compute document declares one (`uuid` of
 * `POST /compute/script/{id}/publish`, which it shares with `/publish/{uuid}`).
 */
function checkedParameters(op: Json, template: string): Parameter[] {
  const params = (op.parameters as Parameter[] | undefined) ?? [];
  return params.filter(
    (p) => p.in === 'query' || (p.in === 'path' && template.includes(`{${p.name}}`)),
  );
}

/**
 * A parameter's value as its schema types it; an array query parameter (`type=1&type=2`, the
 * form the documents' `style: form, explode: true` describes) is every occurrence, each typed
 * by the items' schema. Undefined when the request does not carry it.
 */
function parameterValue(
  schemas: DocumentSchemas,
  area: Area,
  p: Parameter,
  req: CheckedRequest,
): unknown {
  if (p.in === 'path') {
    const raw = req.params[p.name];
    return raw === undefined ? undefined : coerce(raw, schemaType(schemas, area, p.schema));
  }
  if (schemaType(schemas, area, p.schema) !== 'array') {
    const raw = req.query.get(p.name);
    return raw === null ? undefined : coerce(raw, schemaType(schemas, area, p.schema));
  }
  const all = req.query.getAll(p.name);
  const itemType = schemaType(schemas, area, p.schema?.items as Json | undefined);
  return all.length === 0 ? undefined : all.map((raw) => coerce(raw, itemType));
}

function checkParameters(
  schemas: DocumentSchemas,
  area: Area,
  call: { key: string; template: string },
  op: Json,
  req: CheckedRequest,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const p of checkedParameters(op, call.template)) {
    const value = parameterValue(schemas, area, p, req);
    if (value === undefined) {
      if (p.required)
        problems.push({ pointer: p.name, message: 'is required', keyword: 'required' });
      continue;
    }
    if (!p.schema) continue;
    const found = schemas.validateInline(`${call.key} ${p.in}:${p.name}`, area, p.schema, value);
    for (const f of found) problems.push({ ...f, pointer: p.name });
  }
  return problems;
}

/** The JSON media type of a content map (`application/json` first). */
export function jsonContentType(content: Json | undefined): string | undefined {
  if (!content) return undefined;
  return content['application/json'] ? 'application/json' : Object.keys(content)[0];
}

function checkBody(
  schemas: DocumentSchemas,
  area: Area,
  method: string,
  template: string,
  op: Json,
  body: unknown,
): SchemaProblem[] {
  const requestBody = op.requestBody as Json | undefined;
  const type = jsonContentType(requestBody?.content as Json | undefined);
  if (!requestBody || !type) {
    return body === undefined
      ? []
      : [{ pointer: '/', message: 'the operation takes no body', keyword: 'body' }];
  }
  if (body === undefined) {
    return requestBody.required
      ? [{ pointer: '/', message: 'a body is required', keyword: 'required' }]
      : [];
  }
  const pointer = [
    `${documentId(area)}#/paths`,
    escapePointer(documentPath(area, template)),
    method.toLowerCase(),
    'requestBody',
    'content',
    escapePointer(type),
    'schema',
  ].join('/');
  return schemas.validatePointer(pointer, body);
}

/** Checks a request against the document's operation for `method template`. */
export function checkRequest(
  schemas: DocumentSchemas,
  area: Area,
  method: string,
  template: string,
  req: CheckedRequest,
): RequestCheck {
  const op = findOperation(schemas, area, method, template);
  if (!op) return { kind: 'undocumented' };
  const key = `${area} ${method} ${template}`;
  return {
    kind: 'checked',
    problems: [
      ...checkParameters(schemas, area, { key, template }, op, req),
      ...checkBody(schemas, area, method, template, op, req.body),
    ],
  };
}
