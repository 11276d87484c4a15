/**
 * Pull zone hostname, certificate, referrer and blocked-IP operations.
 *
 * Decisions (the documents only say "400 Failed removing ..."):
 * - removing a hostname or certificate that is not there is an error: 400 ApiErrorData
 *   (`pullzone.hostname_not_found` / `pullzone.certificate_not_found`), because hostnames are
 *   resources with identity and the 404 of these operations is reserved for the pull zone;
 * - removing a referrer or blocked IP that is not on the list succeeds (204) and changes
 *   nothing: the lists are sets and the caller's desired end state already holds.
 */
import { apiError, emptyStatus } from '../errors.js';
import type { StoredPullZone } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { BLOCKED_IP_MODEL, HOSTNAME_MODEL, checkModel, type PropSpec } from './body.js';
import { badRequest, isResponse, zoneOr404 } from './pullzone-common.js';
import { findHostname, hostnamesOf, newHostname } from './pullzone-model.js';
import {
  freeCertificateValidation,
  issueCertificate,
  notPointingMessage,
} from '../dns-pointing.js';

type ZoneAction = (zone: StoredPullZone, body: JsonObject, ctx: SimContext) => SimResponse;

/** Validates the body first (model binding precedes the lookup), then finds the zone. */
function withZone(model: Record<string, PropSpec>, action: ZoneAction) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const problem = checkModel(req.body, model);
    if (problem) return badRequest(problem);
    const zone = zoneOr404(req, ctx);
    if (isResponse(zone)) return zone;
    const response = action(zone, req.body as JsonObject, ctx);
    if (response.status < 300) ctx.state.touch();
    return response;
  };
}

function hostOf(zone: StoredPullZone, value: string): JsonObject | undefined {
  const wanted = value.toLowerCase();
  return hostnamesOf(zone).find((h) => String(h.Value).toLowerCase() === wanted);
}

function hostnameNotFound(value: string): SimResponse {
  return apiError(
    400,
    'pullzone.hostname_not_found',
    'Hostname',
    `Hostname ${value} is not on this pull zone`,
  );
}

const addHostname: ZoneAction = (zone, body, ctx) => {
  const value = body.Hostname as string;
  if (findHostname(ctx.state, value)) {
    return apiError(
      400,
      'pullzone.hostname_already_registered',
      'Hostname',
      `Hostname ${value} is already registered`,
    );
  }
  hostnamesOf(zone).push(newHostname(ctx.state.allocateId('hostname'), value, false));
  return emptyStatus(204);
};

const removeHostname: ZoneAction = (zone, body) => {
  const value = body.Hostname as string;
  const host = hostOf(zone, value);
  if (!host) return hostnameNotFound(value);
  if (host.IsSystemHostname === true) {
    return apiError(
      400,
      'pullzone.system_hostname',
      'Hostname',
      `System hostname ${value} cannot be removed`,
    );
  }
  zone.record.Hostnames = hostnamesOf(zone).filter((h) => h !== host);
  return emptyStatus(204);
};

const BASE64 = /^[A-Za-z0-9+/_-]+=*$/;

const addCertificate: ZoneAction = (zone, body) => {
  const value = body.Hostname as string;
  const host = hostOf(zone, value);
  if (!host) return hostnameNotFound(value);
  for (const field of ['Certificate', 'CertificateKey']) {
    if (!BASE64.test(body[field] as string)) {
      return apiError(
        400,
        'pullzone.invalid_certificate',
        field,
        `${field} must be Base64 encoded`,
      );
    }
  }
  Object.assign(host, {
    HasCertificate: true,
    Certificate: body.Certificate,
    CertificateKey: body.CertificateKey,
    CertificateProvisionType: 3,
  });
  return emptyStatus(204);
};

const removeCertificate: ZoneAction = (zone, body) => {
  const value = body.Hostname as string;
  const host = hostOf(zone, value);
  if (!host) return hostnameNotFound(value);
  if (host.IsSystemHostname === true || host.HasCertificate !== true) {
    return apiError(
      400,
      'pullzone.certificate_not_found',
      'Hostname',
      `Hostname ${value} has no removable certificate`,
    );
  }
  Object.assign(host, {
    HasCertificate: false,
    Certificate: null,
    CertificateKey: null,
    CertificateProvisionType: 0,
  });
  return emptyStatus(204);
};

const setForceSsl: ZoneAction = (zone, body) => {
  const value = body.Hostname as string;
  const host = hostOf(zone, value);
  if (!host) return hostnameNotFound(value);
  host.ForceSSL = body.ForceSSL;
  return emptyStatus(204);
};

const updatePrivateKeyType: ZoneAction = (zone, body) => {
  const host = hostOf(zone, body.Hostname as string);
  // The document answers 404 "hostname was not found in the account" here.
  if (!host) return emptyStatus(404);
  host.CertificateKeyType = body.KeyType;
  return emptyStatus(200);
};

function listEditor(field: string, bodyField: string, add: boolean): ZoneAction {
  return (zone, body) => {
    const value = body[bodyField] as string;
    const list = zone.record[field] as string[];
    if (add && !list.includes(value)) list.push(value);
    if (!add) zone.record[field] = list.filter((v) => v !== value);
    return emptyStatus(204);
  };
}

function loadFreeCertificate(req: SimRequest, ctx: SimContext): SimResponse {
  const hostname = req.query.get('hostname');
  if (!hostname) return apiError(400, 'validation.required', 'hostname', 'hostname is required');
  const found = findHostname(ctx.state, hostname);
  if (!found) return emptyStatus(404);
  // Certificates follow DNS (dns-pointing.ts): HTTP-01 needs the hostname to point here.
  const httpOnly = req.query.get('useOnlyHttp01')?.toLowerCase() !== 'false';
  const validation = freeCertificateValidation(ctx.state, hostname, found.zone, httpOnly);
  if (!validation) {
    return apiError(
      400,
      'pullzone.hostname_not_pointing',
      'hostname',
      notPointingMessage(hostname),
    );
  }
  issueCertificate(found.host, hostname, validation);
  ctx.state.touch();
  return emptyStatus(200);
}

const FORCE_SSL_MODEL: Record<string, PropSpec> = {
  Hostname: { type: 'string', required: true },
  ForceSSL: { type: 'boolean', required: true },
};
const KEY_TYPE_MODEL: Record<string, PropSpec> = {
  Hostname: { type: 'string', required: true },
  KeyType: { type: 'enum', required: true, values: [0, 1] },
};
const CERTIFICATE_MODEL: Record<string, PropSpec> = {
  Hostname: { type: 'string', required: true },
  Certificate: { type: 'string', required: true },
  CertificateKey: { type: 'string', required: true },
};

function post(template: string, model: Record<string, PropSpec>, action: ZoneAction): RouteDef {
  return { method: 'POST', template, area: 'core', handler: withZone(model, action) };
}

/** Hostname, certificate, referrer and IP routes. */
export const PULL_ZONE_HOSTNAME_ROUTES: RouteDef[] = [
  post('/pullzone/{id}/addHostname', HOSTNAME_MODEL, addHostname),
  {
    method: 'DELETE',
    template: '/pullzone/{id}/removeHostname',
    area: 'core',
    handler: withZone(HOSTNAME_MODEL, removeHostname),
  },
  post('/pullzone/{id}/addCertificate', CERTIFICATE_MODEL, addCertificate),
  {
    method: 'DELETE',
    template: '/pullzone/{id}/removeCertificate',
    area: 'core',
    handler: withZone(HOSTNAME_MODEL, removeCertificate),
  },
  {
    method: 'GET',
    template: '/pullzone/loadFreeCertificate',
    area: 'core',
    handler: loadFreeCertificate,
  },
  post('/pullzone/{id}/setForceSSL', FORCE_SSL_MODEL, setForceSsl),
  post('/pullzone/{id}/updatePrivateKeyType', KEY_TYPE_MODEL, updatePrivateKeyType),
  post(
    '/pullzone/{id}/addAllowedReferrer',
    HOSTNAME_MODEL,
    listEditor('AllowedReferrers', 'Hostname', true),
  ),
  post(
    '/pullzone/{id}/removeAllowedReferrer',
    HOSTNAME_MODEL,
    listEditor('AllowedReferrers', 'Hostname', false),
  ),
  post(
    '/pullzone/{id}/addBlockedReferrer',
    HOSTNAME_MODEL,
    listEditor('BlockedReferrers', 'Hostname', true),
  ),
  post(
    '/pullzone/{id}/removeBlockedReferrer',
    HOSTNAME_MODEL,
    listEditor('BlockedReferrers', 'Hostname', false),
  ),
  post(
    '/pullzone/{id}/addBlockedIp',
    BLOCKED_IP_MODEL,
    listEditor('BlockedIps', 'BlockedIp', true),
  ),
  post(
    '/pullzone/{id}/removeBlockedIp',
    BLOCKED_IP_MODEL,
    listEditor('BlockedIps', 'BlockedIp', false),
  ),
];
