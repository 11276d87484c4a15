/**
 * The document gate of the request pipeline, after authentication and before any handler:
 *
 * 1. the request is bound the way the live platform binds it (binding.ts) and rewritten in the
 *    documents' spelling, in every mode;
 * 2. strict mode: the bound request is checked against its operation in the official document;
 *    one the document rejects is answered 400 in the area's error shape;
 * 3. strict mode: every request that did not match the documents exactly (rejected, or only
 *    accepted through live binding) is counted in `rejectedByDocument`, so a test can assert
 *    that a client held to the documents (our operator, cdnctl) never sent anything inexact.
 */
import type { Logger } from 'pino';
import type { CallRecorder } from '../calls.js';
import { apiError, shieldError, usesApiErrorData, validationProblem } from '../errors.js';
import type { RouteDef, SimRequest, SimResponse } from '../types.js';
import type { Binder } from './binding.js';
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
  if (usesApiErrorData(route.area)) {
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
  // A raw body (a file upload, a custom page's HTML) is one the document does not describe:
  // only parameters count.
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

/** What the gate needs; `binder` and `schemas` are absent when the documents are. */
export interface GateDeps {
  binder: Binder | undefined;
  /** Present in strict mode. */
  schemas: DocumentSchemas | undefined;
  calls: CallRecorder;
  logger: Logger;
}

/**
 * Binds `req` in place (body and query in the documents' spelling), then, in strict mode,
 * checks and records it. Returns the 400 answer of a request the document rejects.
 */
export function admitRequest(
  deps: GateDeps,
  route: RouteDef,
  req: SimRequest,
): SimResponse | undefined {
  const notes: string[] = [];
  if (deps.binder) {
    const bound = deps.binder.bind(route, req);
    req.body = bound.body;
    req.query = bound.query;
    notes.push(...bound.notes);
  }
  if (!deps.schemas) return undefined;
  const key = `${route.method} ${route.template}`;
  const rejection = rejectByDocument(deps.schemas, route, req);
  if (rejection) {
    deps.calls.recordRejected(key, req.path, [...notes, ...rejection.problems]);
    deps.logger.info(
      { route: key, problems: rejection.problems },
      'Rejected a request the official document does not allow',
    );
    return rejection.response;
  }
  if (notes.length > 0) {
    deps.calls.recordRejected(key, req.path, notes, true);
    deps.logger.debug({ route: key, notes }, 'Bound a request the way the live platform does');
  }
  return undefined;
}
