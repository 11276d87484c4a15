/**
 * Certificates follow DNS: the platform refuses a free certificate (400 "The domain <host> is
 * not pointing to our servers.") until the hostname's DNS leads to the pull zone. That answer is
 * not a spec error: the record may be added at any time (by a DnsRecord, or outside the
 * operator). The hostname stays `CertificatePending` and the request is repeated with a bounded
 * backoff (hostnames.ts: `certificateRetryDelayMs`), counted in `certificate.dnsRefusals`.
 *
 * A pending certificate is reported in a condition of its own, `CertificatesReady`, beside
 * Ready, never by holding Ready at False: the zone serves on its CDN hostname (and on the
 * custom hostname over HTTP) while the certificate waits, dependents need only its id, and a
 * hostname whose DNS the user has not set up yet would otherwise keep the object, and an Argo CD
 * application waiting for it, not ready for ever (docs/pullzoneconfig.md, "Certificates").
 */
import { isCdnApiError } from '../../cdn/errors.js';
import type { ConditionInput } from '../../runtime/conditions.js';
import { certificateRetryDelayMs } from './hostnames.js';
import type { HostnameStatus, PullZoneConfig } from './types.js';

const NOT_POINTING = /not pointing to our servers/i;
/** Condition type of the custom hostnames' certificates, beside Ready and Synced. */
export const CERTIFICATES_READY = 'CertificatesReady';
/** Reason of CertificatesReady=False while a free certificate is being issued (external.ts re-exports it). */
export const CERTIFICATE_PENDING = 'CertificatePending';
/** Reason of CertificatesReady=True. */
export const CERTIFICATES_ISSUED = 'CertificatesIssued';
/**
 * How soon a requested certificate the platform has not refused is looked at again (what the
 * runtime's not-ready poll gave it while a pending certificate held Ready at False).
 */
export const PENDING_CHECK_MS = 15_000;

/** True for the platform's refusal of a free certificate whose hostname's DNS is elsewhere. */
export function isNotPointingError(err: unknown): boolean {
  return (
    isCdnApiError(err) &&
    err.kind === 'invalid' &&
    (NOT_POINTING.test(err.detail) || NOT_POINTING.test(err.message))
  );
}

/**
 * The projected hostname status after the calls, with the refused hostnames counted: one more
 * refusal than the previous status recorded (a request that was accepted starts again at 0).
 */
export function countDnsRefusals(
  projected: readonly HostnameStatus[],
  refused: ReadonlySet<string>,
  previous: readonly HostnameStatus[] | undefined,
): HostnameStatus[] {
  if (refused.size === 0) return [...projected];
  const before = new Map((previous ?? []).map((h) => [h.hostname.toLowerCase(), h]));
  return projected.map((h) => {
    const key = h.hostname.toLowerCase();
    if (!refused.has(key)) return h;
    const count = (before.get(key)?.certificate.dnsRefusals ?? 0) + 1;
    return { ...h, certificate: { ...h.certificate, dnsRefusals: count } };
  });
}

/** The CertificatesReady=False message of hostnames waiting for their certificate. */
function pendingMessage(
  pending: readonly string[],
  observed: readonly HostnameStatus[],
  cdnHostname: string | undefined,
): string {
  const refused = new Set(
    observed
      .filter((h) => (h.certificate.dnsRefusals ?? 0) > 0)
      .map((h) => h.hostname.toLowerCase()),
  );
  const waitingForDns = pending.filter((h) => refused.has(h.toLowerCase()));
  const base = `Waiting for the certificate of ${pending.join(', ')}`;
  if (waitingForDns.length === 0) return base;
  const target = cdnHostname ? ` (a CNAME to ${cdnHostname}, or a PullZone record)` : '';
  return `${base}: the DNS of ${waitingForDns.join(', ')} does not point to the pull zone yet${target}; the request is repeated with backoff`;
}

/**
 * The hostnames of the spec that ask for a certificate and have not got it (of the type asked
 * for) in `hostnames`: not added yet, not requested yet, requested and pending, or refused.
 */
function awaitingCertificate(obj: PullZoneConfig, hostnames: readonly HostnameStatus[]): string[] {
  const byName = new Map(hostnames.map((h) => [h.hostname.toLowerCase(), h.certificate]));
  return (obj.spec?.hostnames ?? [])
    .filter((want) => {
      if (!want.certificate) return false;
      const got = byName.get(want.hostname.toLowerCase());
      return got?.state !== 'Issued' || got.type !== want.certificate.type;
    })
    .map((want) => want.hostname);
}

/**
 * The CertificatesReady condition for the hostname status `hostnames` (observed, or after the
 * hostname calls of an update): False `CertificatePending` while a hostname of the spec has not
 * got the certificate it asks for (the message says which, and whose DNS the platform found
 * pointing elsewhere), True once all have. Undefined for a zone that never asked for a
 * certificate (no condition to keep).
 */
export function certificatesCondition(
  obj: PullZoneConfig,
  hostnames: readonly HostnameStatus[],
  cdnHostname: string | undefined,
): ConditionInput | undefined {
  const shown = (obj.status?.conditions ?? []).some((c) => c.type === CERTIFICATES_READY);
  const awaiting = awaitingCertificate(obj, hostnames);
  const asks = (obj.spec?.hostnames ?? []).some((h) => h.certificate !== undefined);
  if (!shown && !asks) return undefined;
  const generation = obj.metadata.generation;
  const base = {
    type: CERTIFICATES_READY,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
  if (awaiting.length === 0)
    return {
      ...base,
      status: 'True',
      reason: CERTIFICATES_ISSUED,
      message: 'Every hostname that asks for a certificate has it',
    };
  return {
    ...base,
    status: 'False',
    reason: CERTIFICATE_PENDING,
    message: pendingMessage(awaiting, hostnames, cdnHostname),
  };
}

/** Milliseconds until the pending certificate of `h` should be looked at, or undefined. */
function recheckOf(h: HostnameStatus, now: Date): number | undefined {
  const cert = h.certificate;
  if (cert.state !== 'Pending' || cert.lastRequestTime === undefined) return undefined;
  const due =
    Date.parse(cert.lastRequestTime) + certificateRetryDelayMs(cert.dnsRefusals) - now.getTime();
  // Refused for its DNS: nothing changes before the retry. Otherwise the platform may issue it
  // at any moment.
  return (cert.dnsRefusals ?? 0) > 0 ? Math.max(0, due) : Math.min(PENDING_CHECK_MS, due);
}

/**
 * When the next pass should look at the certificates (Observation.requeueAfterMs): soon after
 * a request this pass sends (`requesting`), at the retry of a certificate refused for its DNS,
 * and every {@link PENDING_CHECK_MS} for one requested and not answered yet. Undefined when no
 * certificate is pending, so the zone is polled at its ordinary interval.
 */
export function certificateRecheckMs(
  hostnames: readonly HostnameStatus[],
  requesting: boolean,
  now: Date,
): number | undefined {
  const waits = hostnames
    .map((h) => recheckOf(h, now))
    .filter((ms): ms is number => ms !== undefined);
  if (requesting) waits.push(PENDING_CHECK_MS);
  return waits.length === 0 ? undefined : Math.max(0, Math.min(...waits));
}
