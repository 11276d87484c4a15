/**
 * The documented response mode (`--responses documented`): each JSON answer is projected onto
 * the schema the official document declares for its operation and status (members the schema
 * does not declare are dropped, recursively through `$ref`, `allOf`/`oneOf`/`anyOf`, arrays and
 * dictionaries), and a success status becomes the document's when it declares exactly one
 * success status and ours differs. A `response` row of contract-exceptions.ts for the
 * operation and status wins over the document (its schema is used, its status kept).
 */
import { CONTRACT_EXCEPTIONS } from '../contract-exceptions.js';
import type { ResponseException } from '../contract-exception-types.js';
import type { Area, RouteDef, SimResponse } from '../types.js';
import type { ApiDocuments } from './load.js';
import { documentPath } from './request-check.js';
import { shapeOf } from './shape.js';

type Json = Record<string, unknown>;

/** `full` answers as the simulator always has; `documented` as described above. */
export type ResponseMode = 'full' | 'documented';

/** The accepted values of `--responses` / `CDN_SIM_RESPONSES`. */
export const RESPONSE_MODES: readonly ResponseMode[] = ['full', 'documented'];

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `value` with only the members `schema` (resolved in `doc`) declares, recursively. */
export function projectOnSchema(doc: Json, schema: unknown, value: unknown): unknown {
  return project(doc, [schema], value);
}

function project(doc: Json, schemas: readonly unknown[], value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const shape = shapeOf(doc, schemas);
  if (Array.isArray(value)) {
    return shape.items.length === 0 ? value : value.map((v) => project(doc, shape.items, v));
  }
  if (shape.free) return value;
  const out: Json = {};
  for (const [name, member] of Object.entries(value)) {
    const declared = shape.properties.get(name);
    if (declared) out[name] = project(doc, declared, member);
    else if (shape.additional === true) out[name] = member;
    else if (shape.additional) out[name] = project(doc, shape.additional, member);
  }
  return out;
}

function exceptionFor(
  area: Area,
  method: string,
  template: string,
  status: number,
): ResponseException | undefined {
  return CONTRACT_EXCEPTIONS.find(
    (e): e is ResponseException =>
      e.kind === 'response' &&
      e.area === area &&
      e.method === method &&
      e.path === template &&
      e.status === status,
  );
}

function jsonSchemaOf(response: Json | undefined): unknown {
  const content = response?.content;
  if (!isObject(content)) return undefined;
  const type = content['application/json'] ? 'application/json' : Object.keys(content)[0];
  const media = type ? content[type] : undefined;
  return isObject(media) ? media.schema : undefined;
}

/** The documented status of a success answer: the document's only success status, if any. */
function documentedStatus(route: RouteDef, responses: Json, status: number): number {
  if (status < 200 || status > 299) return status;
  if (exceptionFor(route.area, route.method, route.template, status)) return status;
  const successes = Object.keys(responses).filter((s) => /^2\d\d$/.test(s));
  if (successes.length !== 1 || successes[0] === String(status)) return status;
  return Number(successes[0]);
}

/** The answer shaped by a contract exception's schema (no body when it declares none). */
function byException(doc: Json, exception: ResponseException, response: SimResponse): SimResponse {
  if (exception.schema === null) return { ...response, body: undefined };
  const body =
    response.body === undefined ? undefined : projectOnSchema(doc, exception.schema, response.body);
  return { ...response, body };
}

/**
 * The documented form of `response` for `route` (see the module comment). Answers of
 * operations the document does not have, and statuses it declares no schema for, are kept
 * as they are; a status the document declares without a body loses its body.
 */
export function documentedResponse(
  documents: ApiDocuments,
  route: RouteDef,
  response: SimResponse,
): SimResponse {
  const doc = documents[route.area];
  const exception = exceptionFor(route.area, route.method, route.template, response.status);
  if (exception) return byException(doc, exception, response);
  const paths = doc.paths as Record<string, Json | undefined>;
  const op = paths[documentPath(route.area, route.template)]?.[route.method.toLowerCase()];
  if (!isObject(op) || !isObject(op.responses)) return response;
  const status = documentedStatus(route, op.responses, response.status);
  const declared = (op.responses[String(status)] ?? op.responses.default) as Json | undefined;
  if (!declared) return { ...response, status };
  const schema = jsonSchemaOf(declared);
  if (schema === undefined) return { ...response, status, body: undefined };
  const body =
    response.body === undefined ? undefined : projectOnSchema(doc, schema, response.body);
  return { ...response, status, body };
}
