/**
 * Test helpers for cdn-sim: start an in-process simulator and call it with every response
 * body checked against the official OpenAPI document (contract exceptions applied).
 */
import type { ExecutionContext } from 'ava';
import {
  startSimulator,
  type SimulatorHandle,
  type SimulatorOptions,
} from '../../src/simulator/server.js';
import { validateResponse, type ApiArea } from './openapi.js';

/** The API key every test simulator accepts. */
export const TEST_KEY = 'test-access-key';

/** Starts a simulator on a random loopback port with TEST_KEY. */
export function startTestSim(options: Partial<SimulatorOptions> = {}): Promise<SimulatorHandle> {
  return startSimulator({ port: 0, apiKeys: [{ key: TEST_KEY, roles: ['Admin'] }], ...options });
}

/** One API call. */
export interface CallSpec {
  area: ApiArea;
  method: string;
  /** Path template as in the contract, e.g. `/pullzone/{id}`. */
  template: string;
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** AccessKey header; null sends none. Default TEST_KEY. */
  key?: string | null;
}

/** What a call returned. */
export interface CallResult {
  status: number;
  body: unknown;
  headers: Headers;
}

function fillPath(spec: CallSpec): string {
  const path = spec.template.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(String(spec.params?.[name] ?? '')),
  );
  const query = new URLSearchParams(
    Object.entries(spec.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return query ? `${path}?${query}` : path;
}

/** Calls the simulator without validating the response. */
export async function rawCall(sim: SimulatorHandle, spec: CallSpec): Promise<CallResult> {
  const headers: Record<string, string> = {};
  const key = spec.key === undefined ? TEST_KEY : spec.key;
  if (key !== null) headers.AccessKey = key;
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${sim.url}${fillPath(spec)}`, {
    method: spec.method,
    headers,
    body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
    headers: res.headers,
  };
}

/** Calls the simulator and asserts the response body matches the official schema. */
export async function call(
  t: ExecutionContext,
  sim: SimulatorHandle,
  spec: CallSpec,
): Promise<CallResult> {
  const result = await rawCall(sim, spec);
  const problems = validateResponse(
    spec.area,
    spec.method,
    spec.template,
    result.status,
    result.body,
  );
  t.deepEqual(
    problems,
    [],
    `${spec.method} ${spec.template} -> ${result.status} must match the official schema`,
  );
  return result;
}

/** Calls an admin route. */
export async function admin(
  sim: SimulatorHandle,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = sim.adminToken,
): Promise<CallResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers['X-Sim-Admin-Token'] = token;
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
    headers: res.headers,
  };
}

/** Creates a pull zone through the API and returns its id. */
export async function createPullZone(
  t: ExecutionContext,
  sim: SimulatorHandle,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone',
    body: { Name: name, OriginUrl: 'https://origin.example', ...extra },
  });
  t.is(res.status, 201);
  return (res.body as { Id: number }).Id;
}
