/**
 * Certificates follow DNS: the platform refuses a free certificate (400 "The domain <host> is
 * not pointing to our servers.") until the hostname's DNS leads to the pull zone. That answer is
 * not a spec error: the record may be added at any time (by a DnsRecord, or outside the
 * operator). The hostname stays `CertificatePending` and the request is repeated with a bounded
 * backoff (hostnames.ts: `certificateRetryDelayMs`), counted in `certificate.dnsRefusals`.
 */
import { isCdnApiError } from '../../cdn/errors.js';
import type { HostnameStatus } from './types.js';

const NOT_POINTING = /not pointing to our servers/i;
/** Reason of Ready=False while a free certificate is being issued (external.ts re-exports it). */
export const CERTIFICATE_PENDING = 'CertificatePending';

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

/** The Ready=False message of hostnames waiting for their free certificate. */
export function pendingMessage(
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
  const base = `Waiting for the free certificate of ${pending.join(', ')}`;
  if (waitingForDns.length === 0) return base;
  const target = cdnHostname ? ` (a CNAME to ${cdnHostname}, or a PullZone record)` : '';
  return `${base}: the DNS of ${waitingForDns.join(', ')} does not point to the pull zone yet${target}; the request is repeated with backoff`;
}

/**
 * Ready=False CertificatePending after the hostname calls, when a free certificate is still
 * pending (requested now, or refused for its DNS): the observation made before the calls
 * cannot know it, so the update reports it (UpdateResult.notReady) and the object is observed
 * again at the not-ready interval instead of the poll interval.
 */
export function certificatesPending(
  hostnames: readonly HostnameStatus[],
  cdnHostname: string | undefined,
): { reason: string; message: string } | undefined {
  const pending = hostnames.filter((h) => h.certificate.state === 'Pending').map((h) => h.hostname);
  if (pending.length === 0) return undefined;
  return { reason: CERTIFICATE_PENDING, message: pendingMessage(pending, hostnames, cdnHostname) };
}
