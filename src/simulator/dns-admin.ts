/**
 * Admin API and start options of the certificate rule (dns-pointing.ts):
 *
 * - `GET /_sim/external-dns` lists the hostnames declared as pointed at the CDN by DNS outside
 *   cdn-sim; `PUT /_sim/external-dns/{hostname}` declares one, `DELETE` withdraws it (404 when
 *   it was not declared). Declarations are state: saved with it, cleared by `/_sim/reset`.
 * - `GET /_sim/dns-check` and `PUT /_sim/dns-check {enabled}` read and switch the rule
 *   (configuration like the faults: not saved, kept by `/_sim/reset`).
 */
import type { AdminDeps } from './admin.js';
import { normalizeHost } from './dns-state.js';
import { hostnameProblem } from './routes/dns-record-rules.js';
import type { SimState } from './state.js';
import type { SimRequest, SimResponse } from './types.js';

/** One admin route (the shape admin.ts routes by). */
export interface DnsAdminRoute {
  method: string;
  template: string;
  handler: (req: SimRequest, deps: AdminDeps) => SimResponse;
}

function hostnameParam(req: SimRequest): string | SimResponse {
  const host = normalizeHost(req.params.hostname ?? '');
  const why = hostnameProblem(host.replace(/^\*\./, ''));
  return why ? { status: 400, body: { error: `hostname ${host} ${why}` } } : host;
}

function declare(req: SimRequest, deps: AdminDeps): SimResponse {
  const host = hostnameParam(req);
  if (typeof host !== 'string') return host;
  deps.state.externalDns.add(host);
  deps.state.touch();
  return { status: 204 };
}

function withdraw(req: SimRequest, deps: AdminDeps): SimResponse {
  const host = hostnameParam(req);
  if (typeof host !== 'string') return host;
  if (!deps.state.externalDns.delete(host))
    return { status: 404, body: { error: `${host} is not declared` } };
  deps.state.touch();
  return { status: 204 };
}

function setDnsCheck(req: SimRequest, deps: AdminDeps): SimResponse {
  const enabled = (req.body as { enabled?: unknown } | undefined)?.enabled;
  if (typeof enabled !== 'boolean')
    return { status: 400, body: { error: 'enabled must be a boolean' } };
  deps.state.certificateDnsCheck = enabled;
  return { status: 200, body: { enabled } };
}

/** Admin routes of the certificate rule. */
export const DNS_ADMIN_ROUTES: DnsAdminRoute[] = [
  {
    method: 'GET',
    template: '/_sim/external-dns',
    handler: (_req, deps) => ({
      status: 200,
      body: { hostnames: [...deps.state.externalDns].sort() },
    }),
  },
  { method: 'PUT', template: '/_sim/external-dns/{hostname}', handler: declare },
  { method: 'DELETE', template: '/_sim/external-dns/{hostname}', handler: withdraw },
  {
    method: 'GET',
    template: '/_sim/dns-check',
    handler: (_req, deps) => ({ status: 200, body: { enabled: deps.state.certificateDnsCheck } }),
  },
  { method: 'PUT', template: '/_sim/dns-check', handler: setDnsCheck },
];

/** Start options of the certificate rule (`--no-dns-check`, `--external-dns HOST`). */
export interface DnsOptions {
  /** Free certificates need DNS that points at the pull zone (default true, as live). */
  dnsCheck?: boolean;
  /** Hostnames whose DNS, outside cdn-sim, points at the CDN. */
  externalDns?: string[];
}

/** Applies the start options to a (restored) state. */
export function applyDnsOptions(state: SimState, options: DnsOptions): void {
  state.certificateDnsCheck = options.dnsCheck !== false;
  for (const host of options.externalDns ?? []) state.externalDns.add(normalizeHost(host));
}
