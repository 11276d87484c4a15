/** Helpers of the cdn-sim DNS tests: calls checked against the official document. */
import type { ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, TEST_KEY, type CallResult } from '../../support/sim-client.js';

/** One core call, its answer checked against the official schema (contract exceptions applied). */
export function dns(
  t: ExecutionContext,
  sim: SimulatorHandle,
  method: string,
  template: string,
  params: Record<string, string | number> = {},
  body?: unknown,
  query?: Record<string, string | number | boolean>,
): Promise<CallResult> {
  return call(t, sim, {
    area: 'core',
    method,
    template,
    params,
    ...(body === undefined ? {} : { body }),
    ...(query ? { query } : {}),
  });
}

/** A zone created through the API; returns its id. */
export async function addZone(
  t: ExecutionContext,
  sim: SimulatorHandle,
  domain: string,
  records?: unknown[],
): Promise<number> {
  const res = await dns(t, sim, 'POST', '/dnszone', {}, { Domain: domain, Records: records });
  t.is(res.status, 201, JSON.stringify(res.body));
  return (res.body as { Id: number }).Id;
}

/** A record added through the API; returns the answer. */
export async function addRecord(
  t: ExecutionContext,
  sim: SimulatorHandle,
  zoneId: number,
  record: Record<string, unknown>,
): Promise<CallResult> {
  return dns(t, sim, 'PUT', '/dnszone/{zoneId}/records', { zoneId }, record);
}

/** A raw request whose answer is not JSON (export) or whose body is not (import). */
export async function rawText(
  sim: SimulatorHandle,
  method: string,
  path: string,
  body?: string,
  contentType = 'text/plain',
): Promise<{ status: number; text: string; contentType: string | null }> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: {
      AccessKey: TEST_KEY,
      ...(body === undefined ? {} : { 'content-type': contentType }),
    },
    ...(body === undefined ? {} : { body }),
  });
  return {
    status: res.status,
    text: await res.text(),
    contentType: res.headers.get('content-type'),
  };
}

/** Requests the documents rejected since the simulator started (strict mode). */
export function rejected(sim: SimulatorHandle): number {
  return sim.calls.snapshot().rejectedByDocument.count;
}
