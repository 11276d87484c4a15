/**
 * `GET /shield/waf/engine-config`: the WAF engine variables a shield zone starts from (the
 * document's `GetWafEngineConfigResponse`, `{data: [{name, valueEncoded}]}`). A zone's own
 * `wafEngineConfig` (written with the zone) overrides them one by one; clients read the
 * defaults first (the vendor's Terraform provider does on every shield zone read, issue 49).
 * Static data, no account state. The values are the defaults the vendor's provider restores a
 * zone to: every HTTP version and method it offers, the request content types of the OWASP
 * core rule set, paranoia level 1.
 */
import type { RouteDef, SimResponse } from '../types.js';

const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/related',
  'text/xml',
  'application/xml',
  'application/soap+xml',
  'application/x-amf',
  'application/json',
  'application/octet-stream',
  'application/csp-report',
  'application/xss-auditor-report',
  'text/plain',
];

/** The engine variables, values encoded as the engine takes them (lists space-separated). */
export const WAF_ENGINE_DEFAULTS: ReadonlyArray<{ name: string; valueEncoded: string }> = [
  { name: 'detection_paranoia_level', valueEncoded: '1' },
  { name: 'executing_paranoia_level', valueEncoded: '1' },
  { name: 'blocking_paranoia_level', valueEncoded: '1' },
  { name: 'allowed_methods', valueEncoded: 'GET HEAD POST PUT DELETE CONNECT OPTIONS TRACE PATCH' },
  { name: 'allowed_http_versions', valueEncoded: 'HTTP/1.0 HTTP/1.1 HTTP/2 HTTP/2.0' },
  {
    name: 'allowed_request_content_type',
    valueEncoded: CONTENT_TYPES.map((type) => `|${type}|`).join(' '),
  },
];

function getEngineConfig(): SimResponse {
  return { status: 200, body: { data: WAF_ENGINE_DEFAULTS.map((v) => ({ ...v })) } };
}

/** The WAF engine defaults route. */
export const WAF_ENGINE_ROUTES: RouteDef[] = [
  {
    method: 'GET',
    template: '/shield/waf/engine-config',
    area: 'shield',
    handler: getEngineConfig,
  },
];
