/**
 * Calls to cdn-sim's compute routes (edge scripts) with every answer checked against the
 * compute document: a body the operation declares for the status must match its schema (the
 * models are `additionalProperties: false`, so an undeclared member fails too), a status it
 * declares without a body must come without one, and a `response` row of the contract
 * exceptions for the operation and status wins. Undeclared error statuses must carry the
 * area's `ApiErrorData` or nothing.
 */
import type { ExecutionContext } from 'ava';
import { CONTRACT_EXCEPTIONS } from '../../../src/simulator/contract-exceptions.js';
import type { ResponseException } from '../../../src/simulator/contract-exception-types.js';
import { API_MODEL } from '../../../src/simulator/documents/load.js';
import { DocumentSchemas, escapePointer } from '../../../src/simulator/documents/schemas.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { TEST_KEY } from '../../support/sim-client.js';

type Json = Record<string, unknown>;

const schemas = new DocumentSchemas(API_MODEL, []);
const API_ERROR = { $ref: '#/components/schemas/ApiErrorData' };

/** One call: a path template of the compute document and what fills it. */
export interface ComputeCall {
  method: string;
  template: string;
  params?: Record<string, string | number>;
  /** Query parameters; an array is sent once per item. */
  query?: Record<string, string | number | boolean | Array<string | number>>;
  body?: unknown;
}

/** What a call answered. */
export interface ComputeAnswer {
  status: number;
  // Bodies are read loosely by the tests.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

function urlOf(sim: SimulatorHandle, spec: ComputeCall): string {
  const path = spec.template.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(String(spec.params?.[name] ?? '')),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(spec.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  const qs = query.toString();
  return `${sim.url}${path}${qs ? `?${qs}` : ''}`;
}

function exceptionFor(spec: ComputeCall, status: number): ResponseException | undefined {
  return CONTRACT_EXCEPTIONS.find(
    (e): e is ResponseException =>
      e.kind === 'response' &&
      e.area === 'compute' &&
      e.method === spec.method &&
      e.path === spec.template &&
      e.status === status,
  );
}

/** The problems of an answer against the document (see the module comment). */
export function answerProblems(spec: ComputeCall, status: number, body: unknown): string[] {
  const exception = exceptionFor(spec, status);
  const key = `${spec.method} ${spec.template} ${status}`;
  if (exception) {
    if (exception.schema === null) return body === undefined ? [] : [`${key}: a body`];
    return schemas.validateInline(key, 'compute', exception.schema, body).map((p) => p.message);
  }
  const paths = API_MODEL.compute.paths as Record<string, Json>;
  const op = paths[spec.template]?.[spec.method.toLowerCase()] as Json | undefined;
  const declared = (op?.responses as Json | undefined)?.[String(status)] as Json | undefined;
  if (!declared) {
    if (status < 400) return [`${key}: not a status the document declares`];
    if (body === undefined) return [];
    return schemas
      .validateInline('compute error', 'compute', API_ERROR, body)
      .map((p) => p.message);
  }
  if (!declared.content)
    return body === undefined ? [] : [`${key}: a body the document does not declare`];
  const pointer = [
    'openapi-compute.json#/paths',
    escapePointer(spec.template),
    spec.method.toLowerCase(),
    'responses',
    String(status),
    'content',
    'application~1json',
    'schema',
  ].join('/');
  return schemas.validatePointer(pointer, body).map((p) => `${p.pointer} ${p.message}`);
}

/** Calls the simulator; the answer must match the compute document (see the module comment). */
export async function computeCall(
  t: ExecutionContext,
  sim: SimulatorHandle,
  spec: ComputeCall,
): Promise<ComputeAnswer> {
  const res = await fetch(urlOf(sim, spec), {
    method: spec.method,
    headers: { AccessKey: TEST_KEY, 'content-type': 'application/json' },
    body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
  });
  const text = await res.text();
  const body = text === '' ? undefined : (JSON.parse(text) as unknown);
  t.deepEqual(
    answerProblems(spec, res.status, body),
    [],
    `${spec.method} ${spec.template} -> ${res.status} must match the compute document`,
  );
  return { status: res.status, body };
}

/** Creates a script through the API and returns its read model. */
export async function addScript(
  t: ExecutionContext,
  sim: SimulatorHandle,
  body: Json,
): Promise<ComputeAnswer['body']> {
  const res = await computeCall(t, sim, { method: 'POST', template: '/compute/script', body });
  t.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
