/**
 * Pure planning of custom hostnames: compares `spec.hostnames` with the zone's live
 * hostnames and the previous status, and returns plan entries, the API calls that close the
 * gap (in a safe order), and the hostname status before and after those calls.
 *
 * The zone's system hostname (`<name>.b-cdn.net`) may be listed too, for its HTTPS redirect
 * only: it gets `setForceSSL` like any hostname, and is never added, removed or given a
 * certificate (the platform's own covers it).
 */
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';
import type { FieldDiff } from '../../runtime/types.js';
import type { Hostname } from '../../cdn/types.js';
import type { HostnameSpec, HostnameStatus, PullZoneConfigSpec } from './types.js';
import { PRIVATE_KEY_TYPES } from '../shared/private-key-type.js';

/** One API call on a hostname. */
export type HostnameAction =
  | { op: 'addHostname'; hostname: string }
  | { op: 'updatePrivateKeyType'; hostname: string; keyType: number }
  | { op: 'removeCertificate'; hostname: string }
  | { op: 'loadFreeCertificate'; hostname: string }
  | { op: 'addCertificate'; hostname: string }
  | { op: 'setForceSSL'; hostname: string; forceSSL: boolean }
  | { op: 'removeHostname'; hostname: string };

/** CertificateProvisionType of an uploaded certificate. */
const PROVISION_CUSTOM = 3;
/** A free certificate request without result is repeated after this long. */
export const FREE_CERTIFICATE_RETRY_MS = 10 * 60_000;
/** First retry of a request the platform refused because the hostname's DNS does not point here. */
export const DNS_RETRY_MIN_MS = 30_000;
/** Longest wait between two such requests. */
export const DNS_RETRY_MAX_MS = 5 * 60_000;

/**
 * How long after a free certificate request it is repeated: after `refusals` consecutive
 * "not pointing to our servers" answers, 30 s doubling up to 5 min (the DNS record may appear
 * at any time, and each retry is one cheap call); otherwise {@link FREE_CERTIFICATE_RETRY_MS}.
 */
export function certificateRetryDelayMs(refusals: number | undefined): number {
  if (refusals === undefined || refusals < 1) return FREE_CERTIFICATE_RETRY_MS;
  const exponent = Math.min(refusals - 1, 10);
  return Math.min(DNS_RETRY_MAX_MS, DNS_RETRY_MIN_MS * 2 ** exponent);
}

/** Inputs of {@link planHostnames}. */
export interface HostnamePlanInput {
  spec: Pick<PullZoneConfigSpec, 'hostnames' | 'hostnamePolicy'>;
  /** Live hostnames of the zone, system hostname included (it is skipped). */
  live: readonly Hostname[];
  previous: readonly HostnameStatus[] | undefined;
  /** Hash of each custom certificate Secret, by lowercased hostname. */
  tlsHashes: ReadonlyMap<string, string>;
  now: Date;
}

/** Result of {@link planHostnames}. */
export interface HostnamePlan {
  diffs: FieldDiff[];
  actions: HostnameAction[];
  /** Hostnames whose free certificate was requested and is not issued yet. */
  pending: string[];
  /** Status describing the live state. */
  observed: HostnameStatus[];
  /** Status after every action succeeded. */
  projected: HostnameStatus[];
}

const lower = (s: string): string => s.toLowerCase();
const shortHash = (h: string | undefined): string => (h ? `sha256:${h.slice(0, 12)}` : 'none');

function customHosts(live: readonly Hostname[]): Hostname[] {
  return live.filter((h) => h.IsSystemHostname !== true && typeof h.Value === 'string');
}

function isPending(prev: HostnameStatus | undefined, now: Date): string | undefined {
  if (prev?.certificate.state !== 'Pending') return undefined;
  const since = prev.certificate.lastRequestTime;
  if (since === undefined) return undefined;
  const delay = certificateRetryDelayMs(prev.certificate.dnsRefusals);
  return now.getTime() - Date.parse(since) < delay ? since : undefined;
}

function observedCertificate(
  h: Hostname,
  prev: HostnameStatus | undefined,
  now: Date,
): HostnameStatus['certificate'] {
  if (h.HasCertificate !== true) {
    const since = isPending(prev, now);
    if (!since) return { type: 'None', state: 'None' };
    const refusals = prev?.certificate.dnsRefusals;
    return {
      type: 'Free',
      state: 'Pending',
      lastRequestTime: since,
      ...(refusals ? { dnsRefusals: refusals } : {}),
    };
  }
  if (h.CertificateProvisionType !== PROVISION_CUSTOM) return { type: 'Free', state: 'Issued' };
  const hash = prev?.certificate.secretHash;
  return hash
    ? { type: 'Custom', state: 'Issued', secretHash: hash }
    : { type: 'Custom', state: 'Issued' };
}

/** Status of one live hostname, carrying over what only status knows (added flag, hash). */
function observedStatus(h: Hostname, prev: HostnameStatus | undefined, now: Date): HostnameStatus {
  return {
    hostname: String(h.Value),
    addedByOperator: prev?.addedByOperator ?? false,
    forceSSL: h.ForceSSL === true,
    certificate: observedCertificate(h, prev, now),
  };
}

interface HostContext {
  want: HostnameSpec;
  live: Hostname | undefined;
  status: HostnameStatus;
  tlsHash: string | undefined;
  now: Date;
}

/** Certificate comparison for one desired hostname; mutates the projected status. */
function planCertificate(c: HostContext, out: HostnamePlan): void {
  const cert = c.want.certificate;
  if (!cert) return;
  const name = c.want.hostname;
  const cur = c.status.certificate;
  if (cert.type === 'Free') {
    if (cur.state === 'Pending') return void out.pending.push(name);
    if (cur.type === 'Free' && cur.state === 'Issued') return;
    if (cur.type === 'Custom') out.actions.push({ op: 'removeCertificate', hostname: name });
    out.diffs.push({
      field: `Hostnames[${name}].Certificate`,
      live: describeCert(c.status),
      desired: 'Free',
    });
    out.actions.push({ op: 'loadFreeCertificate', hostname: name });
    c.status.certificate = { type: 'Free', state: 'Pending', lastRequestTime: c.now.toISOString() };
    return;
  }
  if (cur.type === 'Custom' && cur.secretHash === c.tlsHash) return;
  out.diffs.push({
    field: `Hostnames[${name}].Certificate`,
    live: describeCert(c.status),
    desired: `Custom ${shortHash(c.tlsHash)}`,
  });
  out.actions.push({ op: 'addCertificate', hostname: name });
  c.status.certificate = {
    type: 'Custom',
    state: 'Issued',
    ...(c.tlsHash ? { secretHash: c.tlsHash } : {}),
  };
}

function describeCert(s: HostnameStatus): string {
  const c = s.certificate;
  if (c.type === 'None') return 'none';
  return c.type === 'Custom' ? `Custom ${shortHash(c.secretHash)}` : `Free (${c.state})`;
}

function planKeyType(c: HostContext, out: HostnamePlan): void {
  const wanted = c.want.privateKeyType;
  if (!wanted) return;
  const keyType = PRIVATE_KEY_TYPES.indexOf(wanted);
  const current = c.live?.CertificateKeyType ?? 0;
  if (current === keyType) return;
  out.diffs.push({
    field: `Hostnames[${c.want.hostname}].CertificateKeyType`,
    live: PRIVATE_KEY_TYPES[current] ?? String(current),
    desired: wanted,
  });
  out.actions.push({ op: 'updatePrivateKeyType', hostname: c.want.hostname, keyType });
}

function planForceSsl(c: HostContext, out: HostnamePlan): void {
  const wanted = c.want.forceSSL;
  if (wanted === undefined || c.status.forceSSL === wanted) return;
  out.diffs.push({
    field: `Hostnames[${c.want.hostname}].ForceSSL`,
    live: String(c.status.forceSSL),
    desired: String(wanted),
  });
  out.actions.push({ op: 'setForceSSL', hostname: c.want.hostname, forceSSL: wanted });
  c.status.forceSSL = wanted;
}

function planDesired(c: HostContext, out: HostnamePlan): HostnameStatus {
  if (!c.live) {
    out.diffs.push({
      field: `Hostnames[${c.want.hostname}]`,
      live: '<absent>',
      desired: 'present',
    });
    out.actions.push({ op: 'addHostname', hostname: c.want.hostname });
    c.status.addedByOperator = true;
  }
  // Key type first, so a free certificate requested below is issued with it.
  planKeyType(c, out);
  planCertificate(c, out);
  planForceSsl(c, out);
  return c.status;
}

function freshStatus(hostname: string): HostnameStatus {
  return {
    hostname,
    addedByOperator: false,
    forceSSL: false,
    certificate: { type: 'None', state: 'None' },
  };
}

function systemHost(live: readonly Hostname[]): Hostname | undefined {
  return live.find((h) => h.IsSystemHostname === true && typeof h.Value === 'string');
}

/**
 * A spec entry naming the system hostname: only its forceSSL is planned, on the platform's
 * spelling of the name. A certificate or key type for it is a spec error.
 */
function planSystemHost(
  want: HostnameSpec,
  system: Hostname,
  input: HostnamePlanInput,
  out: HostnamePlan,
): void {
  const name = String(system.Value);
  if (want.certificate || want.privateKeyType) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      `cannot manage the system hostname ${name} (spec.hostnames): only forceSSL can be set on it, its certificate is the platform's; remove certificate and privateKeyType from this entry`,
    );
  }
  const prev = (input.previous ?? []).find((s) => lower(s.hostname) === lower(name));
  const observed = { ...observedStatus(system, prev, input.now), addedByOperator: false };
  out.observed.push(observed);
  const status = structuredClone(observed);
  planForceSsl(
    { want: { ...want, hostname: name }, live: system, status, tlsHash: undefined, now: input.now },
    out,
  );
  out.projected.push(status);
}

/** Hostnames observed but not wanted: kept, or removed as the policy allows. */
function planRemovals(input: HostnamePlanInput, wanted: Set<string>, out: HostnamePlan): void {
  const exact = input.spec.hostnamePolicy === 'Exact';
  for (const s of out.observed) {
    if (wanted.has(lower(s.hostname))) continue;
    if (!exact && !s.addedByOperator) {
      out.projected.push(s);
      continue;
    }
    out.diffs.push({ field: `Hostnames[${s.hostname}]`, live: 'present', desired: '<absent>' });
    out.actions.push({ op: 'removeHostname', hostname: s.hostname });
  }
}

/** See the module comment. */
export function planHostnames(input: HostnamePlanInput): HostnamePlan {
  const out: HostnamePlan = { diffs: [], actions: [], pending: [], observed: [], projected: [] };
  const prevByName = new Map((input.previous ?? []).map((s) => [lower(s.hostname), s]));
  const liveByName = new Map(customHosts(input.live).map((h) => [lower(String(h.Value)), h]));
  for (const [name, h] of liveByName)
    out.observed.push(observedStatus(h, prevByName.get(name), input.now));
  const observedByName = new Map(out.observed.map((s) => [lower(s.hostname), s]));
  const system = systemHost(input.live);
  const desired = input.spec.hostnames ?? [];
  for (const want of desired) {
    const key = lower(want.hostname);
    if (system && key === lower(String(system.Value))) {
      planSystemHost(want, system, input, out);
      continue;
    }
    const current = observedByName.get(key);
    const status = current ? structuredClone(current) : freshStatus(want.hostname);
    const ctx: HostContext = {
      want,
      live: liveByName.get(key),
      status,
      tlsHash: input.tlsHashes.get(key),
      now: input.now,
    };
    out.projected.push(planDesired(ctx, out));
  }
  planRemovals(input, new Set(desired.map((h) => lower(h.hostname))), out);
  return out;
}
