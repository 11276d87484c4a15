/**
 * Certificates follow DNS: the platform issues a free (HTTP-01) certificate only for a hostname
 * whose DNS points at the pull zone, and answers 400 "The domain <host> is not pointing to our
 * servers." otherwise (the wording the vendor's Terraform provider matches). In cdn-sim a
 * hostname points at a pull zone when
 *
 * - it is the zone's system hostname (`<name>.b-cdn.net`), or
 * - a simulated DNS zone of the account holds, at the hostname's name (or, when the name has no
 *   record, at the wildcard `*` of its parent), an enabled record that leads to the pull zone: a
 *   CNAME or Flatten record to one of its system hostnames, a PullZone record linking it, or an
 *   accelerated record whose pull zone it is, or
 * - the hostname is declared as pointed by DNS outside cdn-sim (admin API, `--external-dns`).
 *
 * With `useOnlyHttp01=false` and a simulated DNS zone for the hostname, the platform validates
 * with DNS-01 in its own zone instead, which needs no pointing. `--no-dns-check` issues
 * certificates unconditionally, as cdn-sim did before DNS was simulated.
 */
import { dnsZoneForHostname, normalizeHost, type StoredDnsZone } from './dns-state.js';
import type { SimState, StoredPullZone } from './state.js';
import type { JsonObject } from './types.js';
import { RECORD_TYPE } from './routes/dns-record-rules.js';
import { hostnamesOf } from './routes/pullzone-model.js';

/** How a free certificate is validated (CertificateProvisionType 1 and 2). */
export type Validation = 'Http01' | 'Dns01';

/** CertificateProvisionType of each validation. */
export const PROVISION_TYPE: Record<Validation, number> = { Http01: 1, Dns01: 2 };

/** The live API's message for a hostname whose DNS does not lead to the CDN. */
export function notPointingMessage(hostname: string): string {
  return `The domain ${hostname} is not pointing to our servers.`;
}

function systemHostnames(pullZone: StoredPullZone): string[] {
  return hostnamesOf(pullZone)
    .filter((h) => h.IsSystemHostname === true)
    .map((h) => normalizeHost(String(h.Value)));
}

function leadsTo(record: JsonObject, pullZone: StoredPullZone): boolean {
  if (record.Disabled === true) return false;
  const id = Number(pullZone.record.Id);
  if (record.Accelerated === true && record.AcceleratedPullZoneId === id) return true;
  if (record.Type === RECORD_TYPE.PullZone) return Number(record.LinkName) === id;
  if (record.Type !== RECORD_TYPE.CNAME && record.Type !== RECORD_TYPE.Flatten) return false;
  return systemHostnames(pullZone).includes(normalizeHost(String(record.Value)));
}

/** The records DNS answers for `name` in the zone: its own, else the parent's wildcard. */
function recordsAt(zone: StoredDnsZone, name: string): JsonObject[] {
  const at = (n: string): JsonObject[] =>
    zone.records.filter((r) => String(r.Name).toLowerCase() === n);
  const own = at(name);
  if (own.length > 0 || name === '') return own;
  const parent = name.split('.').slice(1).join('.');
  return at(parent === '' ? '*' : `*.${parent}`);
}

/** True when a simulated DNS zone resolves `hostname` to `pullZone`. */
export function pointsAt(state: SimState, hostname: string, pullZone: StoredPullZone): boolean {
  const found = dnsZoneForHostname(state, hostname);
  if (!found) return false;
  return recordsAt(found.zone, found.relativeName).some((r) => leadsTo(r, pullZone));
}

/**
 * How the platform would validate a free certificate for `hostname` on `pullZone`, or
 * undefined when it cannot (the 400 above).
 */
export function freeCertificateValidation(
  state: SimState,
  hostname: string,
  pullZone: StoredPullZone,
  useOnlyHttp01: boolean,
): Validation | undefined {
  const host = normalizeHost(hostname);
  if (!useOnlyHttp01 && dnsZoneForHostname(state, host)) return 'Dns01';
  if (!state.certificateDnsCheck || state.externalDns.has(host)) return 'Http01';
  if (systemHostnames(pullZone).includes(host)) return 'Http01';
  return pointsAt(state, host, pullZone) ? 'Http01' : undefined;
}

/** Marks a hostname entry as holding a certificate the platform issued. */
export function issueCertificate(host: JsonObject, hostname: string, validation: Validation): void {
  Object.assign(host, {
    HasCertificate: true,
    Certificate: Buffer.from(`sim-certificate:${hostname}`).toString('base64'),
    CertificateKey: Buffer.from(`sim-key:${hostname}`).toString('base64'),
    CertificateProvisionType: PROVISION_TYPE[validation],
  });
}
