/**
 * The strict-mode gate of the request pipeline: a request the official document rejects is
 * answered 400 in the area's error shape before any handler runs, and counted, so a test can
 * assert that a client never sent anything the platform would refuse.
 */
import { apiError, shieldError, validationProblem } from '../errors.js';
import type { RouteDef, SimRequest, SimResponse } from '../types.js';
import { checkRequest } from './request-check.js';
import type { DocumentSchemas, SchemaProblem } from './schemas.js';

/** A request the document rejects: the answer and what was wrong. */
export interface DocumentRejection {
  response: SimResponse;
  problems: string[];
}

/** `/containerTemplates/0/name` -> `containerTemplates[0].name`; a parameter name stays. */
export function fieldOf(pointer: string): string {
  if (!pointer.startsWith('/')) return pointer;
  if (pointer === '/') return 'body';
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, seg) => (/^\d+$/.test(seg) ? `${out}[${seg}]` : out ? `${out}.${seg}` : seg), '');
}

const CORE_ERROR_KEYS: Record<string, string> = {
  minimum: 'validation.out_of_range',
  maximum: 'validation.out_of_range',
  format: 'validation.out_of_range',
  additionalProperties: 'validation.unknown_property',
  required: 'validation.required',
  type: 'validation.invalid_type',
};

/**
 * The core area's `ErrorKey` for the problems of one field (the keys the handlers use); a
 * range problem wins over an enum one (an integer enum outside its range is out of range).
 */
function coreErrorKey(problems: SchemaProblem[]): string {
  const keys = problems.map((p) => CORE_ERROR_KEYS[p.keyword] ?? 'validation.invalid_value');
  return keys.find((k) => k === 'validation.out_of_range') ?? keys[0]!;
}

function answer(route: RouteDef, req: SimRequest, problems: SchemaProblem[]): SimResponse {
  const first = problems[0]!;
  const field = fieldOf(first.pointer);
  const message = `${field} ${first.message} (official document)`;
  if (route.area === 'core') {
    const ofField = problems.filter((p) => p.pointer === first.pointer);
    return apiError(400, coreErrorKey(ofField), field, message);
  }
  if (route.area === 'mc') {
    const errors = problems.map((p) => ({ field: fieldOf(p.pointer), message: p.message }));
    return validationProblem(400, req.path, errors);
  }
  return shieldError(400, 'validation.document', message);
}

/** The rejection of a request the document does not allow, or undefined when it is fine. */
export function rejectByDocument(
  schemas: DocumentSchemas,
  route: RouteDef,
  req: SimRequest,
): DocumentRejection | undefined {
  // A raw body (a custom page's HTML) is one the document does not show: only parameters count.
  const checked = route.rawBody ? { ...req, body: undefined } : req;
  const check = checkRequest(schemas, route.area, route.method, route.template, checked);
  if (check.kind === 'undocumented') {
    const problem: SchemaProblem = {
      pointer: 'path',
      message: 'is not an operation of the document',
      keyword: 'operation',
    };
    return { response: answer(route, req, [problem]), problems: ['operation not in the document'] };
  }
  if (check.problems.length === 0) return undefined;
  return {
    response: answer(route, req, check.problems),
    problems: check.problems.map((p) => `${fieldOf(p.pointer)} ${p.message}`),
  };
}
