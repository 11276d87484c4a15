/**
 * Validates request and response bodies against the API documents (the committed model of the
 * official OpenAPI documents, see openapi-docs.ts), with the simulator's contract exceptions
 * applied (src/simulator/contract-exceptions.ts).
 *
 * OpenAPI 3.0 specifics handled: `nullable: true` becomes a JSON-schema type union (or an
 * `anyOf` with null around `$ref`/`oneOf`/`allOf`), `#/components/...` refs resolve inside the
 * area's document, and the .NET number formats (int32, int64, double, float, decimal) are known.
 */
import { Ajv, type ValidateFunction, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import {
  CONTRACT_EXCEPTIONS,
  type ResponseException,
} from '../../src/simulator/contract-exceptions.js';
import {
  applySchemaPatch,
  convertNullable,
  rewriteRefs,
} from '../../src/simulator/documents/schemas.js';
import { loadOpenApiDocument, type ApiArea } from './openapi-docs.js';

export type { ApiArea } from './openapi-docs.js';

export { convertNullable } from '../../src/simulator/documents/schemas.js';

type Json = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function createAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX,
  });
  for (const name of ['int64', 'double', 'float', 'decimal']) {
    ajv.addFormat(name, { type: 'number', validate: () => true });
  }
  // .NET Guid (the DNS record scan's JobId): without it Ajv warns and checks nothing.
  ajv.addFormat('guid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  // A .NET TimeSpan (`[-][d.]hh:mm:ss[.fffffff]`), e.g. an access list's updateFrequency.
  ajv.addFormat('date-span', {
    type: 'string',
    validate: /^-?(\d+\.)?\d{1,2}:\d{2}:\d{2}(\.\d{1,7})?$/,
  });
  return ajv;
}

let ajvInstance: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function docId(area: ApiArea): string {
  return `openapi-${area}.json`;
}

function getAjv(): Ajv {
  if (ajvInstance) return ajvInstance;
  const ajv = createAjv();
  for (const area of ['core', 'mc', 'shield'] as const) {
    const doc = structuredClone(loadOpenApiDocument(area));
    for (const patch of CONTRACT_EXCEPTIONS) {
      if (patch.kind === 'schema-patch' && patch.area === area) applySchemaPatch(doc, patch);
    }
    ajv.addSchema(convertNullable(doc) as Json, docId(area));
  }
  ajvInstance = ajv;
  return ajv;
}

function compileCached(key: string, schema: () => Json): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = getAjv().compile(schema());
    validators.set(key, validate);
  }
  return validate;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Path as the area's document writes it: the Magic Containers document omits `/mc`. */
function documentPath(area: ApiArea, pathTemplate: string): string {
  return area === 'mc' && pathTemplate.startsWith('/mc/') ? pathTemplate.slice(3) : pathTemplate;
}

function findOperation(area: ApiArea, method: string, path: string): Json | undefined {
  const paths = loadOpenApiDocument(area).paths as Record<string, Json>;
  return paths[path]?.[method.toLowerCase()] as Json | undefined;
}

function jsonContent(content: Json | undefined): [string, Json] | undefined {
  if (!content) return undefined;
  const type = content['application/json'] ? 'application/json' : Object.keys(content)[0];
  return type ? [type, content[type] as Json] : undefined;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})`
        : '';
    return `${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
  });
}

function isEmptyBody(body: unknown): boolean {
  return body === undefined || body === null || body === '';
}

function findResponseException(
  area: ApiArea,
  method: string,
  path: string,
  status: number,
): ResponseException | undefined {
  return CONTRACT_EXCEPTIONS.find(
    (e): e is ResponseException =>
      e.kind === 'response' &&
      e.area === area &&
      (e.method === '*' || e.method === method.toUpperCase()) &&
      (e.path === '*' || e.path === path) &&
      e.status === status,
  );
}

function validateException(area: ApiArea, e: ResponseException, body: unknown): string[] {
  if (e.schema === null) return isEmptyBody(body) ? [] : ['/ body present where none is declared'];
  const key = `exc:${area}:${e.method} ${e.path} ${e.status}`;
  const validate = compileCached(key, () => rewriteRefs(e.schema, docId(area)) as Json);
  return validate(body) ? [] : formatErrors(validate.errors);
}

function validateAgainst(pointer: string, body: unknown): string[] {
  const validate = compileCached(pointer, () => ({ $ref: pointer }));
  return validate(body) ? [] : formatErrors(validate.errors);
}

/**
 * Validates a response body (parsed JSON, or undefined when empty) against the official
 * document's schema for `method pathTemplate status`, after the contract exceptions.
 * Returns the list of problems; empty means valid.
 */
export function validateResponse(
  area: ApiArea,
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
): string[] {
  const exception = findResponseException(area, method, pathTemplate, status);
  // A route-wide (`*`) exception only covers statuses the operation does not declare.
  if (exception && exception.path !== '*') return validateException(area, exception, body);
  const path = documentPath(area, pathTemplate);
  const op = findOperation(area, method, path);
  if (!op) return [`${method} ${pathTemplate} is not in the ${area} document`];
  const responses = op.responses as Record<string, Json>;
  const response = responses[String(status)] ?? responses.default;
  if (!response && exception) return validateException(area, exception, body);
  if (!response) return [`${method} ${pathTemplate} declares no status ${status}`];
  const content = jsonContent(response.content as Json | undefined);
  if (!content || !content[1].schema) {
    return isEmptyBody(body) ? [] : [`/ body present where ${status} declares none`];
  }
  const pointer = [
    `${docId(area)}#/paths`,
    escapePointer(path),
    method.toLowerCase(),
    'responses',
    response === responses[String(status)] ? String(status) : 'default',
    'content',
    escapePointer(content[0]),
    'schema',
  ].join('/');
  return validateAgainst(pointer, body);
}

/**
 * Validates a request body against the official document's request schema for
 * `method pathTemplate` (contract exceptions applied). Empty list means valid.
 */
export function validateRequest(
  area: ApiArea,
  method: string,
  pathTemplate: string,
  body: unknown,
): string[] {
  const path = documentPath(area, pathTemplate);
  const op = findOperation(area, method, path);
  if (!op) return [`${method} ${pathTemplate} is not in the ${area} document`];
  const content = jsonContent((op.requestBody as Json | undefined)?.content as Json | undefined);
  if (!content) return isEmptyBody(body) ? [] : ['/ body present where none is declared'];
  const pointer = [
    `${docId(area)}#/paths`,
    escapePointer(path),
    method.toLowerCase(),
    'requestBody',
    'content',
    escapePointer(content[0]),
    'schema',
  ].join('/');
  return validateAgainst(pointer, body);
}
