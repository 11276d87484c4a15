/**
 * Certificates by DNS-01 for hostnames whose DNS is elsewhere (account-level routes, not under
 * `/pullzone/{id}`):
 *
 * - `POST /pullzone/requestExternalDnsCertificate {Hostname}` answers the TXT record to publish:
 *   `{TxtRecordName, TxtRecordValue, ExpiresAt}` (the document leaves the body open; these are
 *   the members the live API answers), valid for one hour;
 * - `POST /pullzone/completeExternalDnsCertificate {Hostname}` checks it and issues the
 *   certificate (CertificateProvisionType Dns01). The TXT record is found when a simulated DNS
 *   zone of the account holds it, or when the hostname is declared as served by DNS outside
 *   cdn-sim (admin API), which stands for "the user published it there".
 *
 * A hostname on no pull zone is 404 (no body); completing without a pending request, after it
 * expired, or before the record exists is 400 with ApiErrorData.
 */
import { randomBytes } from 'node:crypto';
import { apiError, emptyStatus } from '../errors.js';
import { dnsZoneForHostname, normalizeHost } from '../dns-state.js';
import { issueCertificate } from '../dns-pointing.js';
import type { SimState, StoredPullZone } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { HOSTNAME_MODEL, checkModel } from './body.js';
import { RECORD_TYPE } from './dns-record-rules.js';
import { badRequest } from './pullzone-common.js';
import { findHostname } from './pullzone-model.js';

const CHALLENGE_TTL_MS = 3_600_000;

interface Challenge {
  TxtRecordName: string;
  TxtRecordValue: string;
  ExpiresAt: string;
}

/** Pending challenges of a pull zone, by lowercased hostname (kept with the zone's state). */
function challengesOf(zone: StoredPullZone): Record<string, Challenge> {
  const hidden = zone.hidden as { externalDnsChallenges?: Record<string, Challenge> };
  hidden.externalDnsChallenges ??= {};
  return hidden.externalDnsChallenges;
}

function txtPublished(state: SimState, challenge: Challenge): boolean {
  const found = dnsZoneForHostname(state, challenge.TxtRecordName);
  return (
    found?.zone.records.some(
      (r: JsonObject) =>
        r.Type === RECORD_TYPE.TXT &&
        r.Disabled !== true &&
        String(r.Name).toLowerCase() === found.relativeName &&
        r.Value === challenge.TxtRecordValue,
    ) ?? false
  );
}

function withHostname(
  action: (
    found: { zone: StoredPullZone; host: JsonObject },
    hostname: string,
    ctx: SimContext,
  ) => SimResponse,
) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const problem = checkModel(req.body, HOSTNAME_MODEL);
    if (problem) return badRequest(problem);
    const hostname = normalizeHost((req.body as { Hostname: string }).Hostname);
    const found = findHostname(ctx.state, hostname);
    return found ? action(found, hostname, ctx) : emptyStatus(404);
  };
}

const request = withHostname(({ zone }, hostname, ctx) => {
  const challenge: Challenge = {
    TxtRecordName: `_acme-challenge.${hostname}`,
    TxtRecordValue: randomBytes(32).toString('base64url'),
    ExpiresAt: new Date(Date.now() + CHALLENGE_TTL_MS).toISOString(),
  };
  challengesOf(zone)[hostname] = challenge;
  ctx.state.touch();
  return { status: 200, body: { ...challenge } };
});

function verificationProblem(
  state: SimState,
  hostname: string,
  challenge: Challenge | undefined,
): string | undefined {
  if (!challenge || Date.parse(challenge.ExpiresAt) < Date.now())
    return `No pending certificate request for ${hostname}: request one first`;
  if (state.externalDns.has(hostname) || txtPublished(state, challenge)) return undefined;
  return `The TXT record ${challenge.TxtRecordName} with the requested value was not found`;
}

const complete = withHostname(({ zone, host }, hostname, ctx) => {
  const challenges = challengesOf(zone);
  const problem = verificationProblem(ctx.state, hostname, challenges[hostname]);
  if (problem) return apiError(400, 'pullzone.dns_verification_failed', 'Hostname', problem);
  delete challenges[hostname];
  issueCertificate(host, hostname, 'Dns01');
  ctx.state.touch();
  return emptyStatus(200);
});

/** External-DNS certificate routes. */
export const DNS_EXTERNAL_CERTIFICATE_ROUTES: RouteDef[] = [
  {
    method: 'POST',
    template: '/pullzone/requestExternalDnsCertificate',
    area: 'core',
    handler: request,
  },
  {
    method: 'POST',
    template: '/pullzone/completeExternalDnsCertificate',
    area: 'core',
    handler: complete,
  },
];
