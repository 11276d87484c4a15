/**
 * Test harness: an in-process cdn-sim plus a CdnClient whose fetch is wrapped to capture every
 * request body it sends, so tests can validate each body against the official OpenAPI request
 * schema (test/support/openapi.ts).
 */
import { randomUUID } from 'node:crypto';
import nodeFetch from 'node-fetch';
import type { ExecutionContext } from 'ava';
import { CdnClient, type CdnClientOptions } from '../../../src/cdn/client.js';
import type { FetchLike } from '../../../src/cdn/options.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { validateRequest, type ApiArea } from '../../support/openapi.js';
import { SECURITY_BODY_ROUTES } from './security-routes.js';

/** One request body the client sent. */
export interface SentBody {
  method: string;
  path: string;
  body: unknown;
  /** A body sent as it is, not JSON (a custom page's HTML, which the document does not show). */
  raw?: true;
}

/** Every route the client sends a body to, with its document area. */
const BODY_ROUTES: Array<{ area: ApiArea; template: string }> = [
  { area: 'core', template: '/pullzone' },
  { area: 'core', template: '/pullzone/{id}' },
  ...[
    'addHostname',
    'removeHostname',
    'addCertificate',
    'removeCertificate',
    'setForceSSL',
    'updatePrivateKeyType',
    'addAllowedReferrer',
    'removeAllowedReferrer',
    'addBlockedReferrer',
    'removeBlockedReferrer',
    'addBlockedIp',
    'removeBlockedIp',
  ].map((op) => ({ area: 'core' as const, template: `/pullzone/{id}/${op}` })),
  // Before `/storagezone/{id}`, which would match it too.
  { area: 'core', template: '/storagezone/checkavailability' },
  { area: 'core', template: '/videolibrary/{id}/addBlockedReferrer' },
  { area: 'core', template: '/pullzone/{pullZoneId}/edgerules/addOrUpdate' },
  { area: 'core', template: '/pullzone/{pullZoneId}/edgerules/{edgeRuleId}/setEdgeRuleEnabled' },
  { area: 'core', template: '/pullzone/{id}/purgeCache' },
  { area: 'core', template: '/storagezone' },
  { area: 'core', template: '/storagezone/{id}' },
  ...SECURITY_BODY_ROUTES,
  { area: 'mc', template: '/mc/apps' },
  { area: 'mc', template: '/mc/apps/{appId}' },
  { area: 'shield', template: '/shield/shield-zone' },
];

function matchRoute(path: string): { area: ApiArea; template: string } | undefined {
  return BODY_ROUTES.find(({ template }) => {
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return re.test(path);
  });
}

export interface SimClient {
  sim: SimulatorHandle;
  client: CdnClient;
  apiKey: string;
  sent: SentBody[];
  /** Calls the simulator's admin API. */
  admin(method: string, path: string, body?: unknown): Promise<unknown>;
  /** A second client with other options (same key, same capture). */
  makeClient(extra?: Partial<CdnClientOptions>): CdnClient;
}

/** A fetch that records JSON bodies before sending. */
export function capturingFetch(sent: SentBody[]): FetchLike {
  const real = nodeFetch as unknown as FetchLike;
  return (url, init) => {
    if (init.body !== undefined) {
      const path = new URL(url).pathname;
      const json = /json/i.test(init.headers['Content-Type'] ?? '');
      sent.push(
        json
          ? { method: init.method, path, body: JSON.parse(init.body as string) as unknown }
          : { method: init.method, path, body: init.body, raw: true },
      );
    }
    return real(url, init);
  };
}

/**
 * Starts a simulator with a fresh API key and a client on it; both are torn down with the
 * test, and at teardown every captured body is validated against the official request schema.
 */
export async function startSimClient(
  t: ExecutionContext,
  extra: Partial<CdnClientOptions> = {},
  extraKeys: string[] = [],
): Promise<SimClient> {
  const apiKey = `sim-${randomUUID()}`;
  const sim = await startSimulator({
    port: 0,
    apiKeys: [
      { key: apiKey, roles: ['Admin'] },
      ...extraKeys.map((key) => ({ key, roles: ['User'] })),
    ],
  });
  const sent: SentBody[] = [];
  const makeClient = (more: Partial<CdnClientOptions> = {}): CdnClient =>
    new CdnClient({
      baseUrl: sim.url,
      credentials: apiKey,
      retry: { baseDelayMs: 20, maxDelayMs: 100 },
      fetch: capturingFetch(sent),
      ...extra,
      ...more,
    });
  const client = makeClient();
  t.teardown(async () => {
    client.close();
    await sim.close();
  });
  const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${sim.url}${path}`, {
      method,
      headers: { 'X-Sim-Admin-Token': sim.adminToken, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`admin ${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  return { sim, client, apiKey, sent, admin, makeClient };
}

/** Asserts every captured body matches the official request schema of its route. */
export function assertBodiesValid(t: ExecutionContext, sent: SentBody[]): void {
  for (const s of sent.filter((b) => !b.raw)) {
    const route = matchRoute(s.path);
    if (!route) {
      t.fail(`no known route for ${s.method} ${s.path}`);
      continue;
    }
    const problems = validateRequest(route.area, s.method, route.template, s.body);
    t.deepEqual(
      problems,
      [],
      `${s.method} ${route.template} body does not match the official schema`,
    );
  }
}

/** Sim call counters of one templated route. */
export async function callsOf(
  h: SimClient,
  route: string,
): Promise<{ count: number; byStatus: Record<string, number> }> {
  const snap = (await h.admin('GET', '/_sim/calls')) as {
    routes: Record<string, { count: number; byStatus: Record<string, number> }>;
  };
  return snap.routes[route] ?? { count: 0, byStatus: {} };
}
