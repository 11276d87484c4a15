/**
 * One DNS-01 challenge, Present or CleanUp (cert-manager's webhook protocol, challenge.ts): the
 * zone is chosen from the DnsZone objects of the challenge's namespace (zone-choice.ts), the
 * record written or removed with that zone object's own account (cdn/acme-challenge-records.ts).
 * A refusal or a platform error is answered as a failed ChallengeResponse whose message says
 * why (cert-manager shows it in the Challenge's status); no API key or record value is in it.
 */
import type { CdnClient } from '../cdn/client.js';
import { cleanUpChallenge, presentChallenge } from '../cdn/acme-challenge-records.js';
import { isCdnApiError } from '../cdn/errors.js';
import type { ManagedObject } from '../runtime/types.js';
import { ChallengeRefused, type ChallengeRequest, type ChallengeResponse } from './challenge.js';
import { chooseZone, SolverReason, type ZoneChoice } from './zone-choice.js';

/** What the solver needs from the operator. */
export interface SolverDeps {
  /** Every DnsZone object (the informer's cache). */
  dnsZones(): readonly ManagedObject[];
  /** The client and marker key of a DnsZone object's account (its accountRef or credentialsRef). */
  connect(zone: ManagedObject): Promise<{ client: CdnClient; markerKey: Uint8Array }>;
  signal?: AbortSignal;
}

/** What one challenge did: `present` is a record already there, `absent` one already gone. */
export type ChallengeResult = 'written' | 'present' | 'removed' | 'absent' | 'refused' | 'failed';

/** What one challenge did (for the log and the metrics), beside the response. */
export interface SolveOutcome {
  response: ChallengeResponse;
  result: ChallengeResult;
  zone?: { namespace: string; name: string; id: number };
}

const DNS01 = 'dns-01';

function failure(req: ChallengeRequest, reason: string, message: string): ChallengeResponse {
  return { uid: req.uid, success: false, status: { reason, message } };
}

/** The error's text without anything a tenant should not see (no key, no value). */
function platformMessage(err: unknown): string {
  if (isCdnApiError(err))
    return `${err.operation} failed${err.status ? ` (HTTP ${err.status})` : ''}: ${err.detail}`;
  return err instanceof Error ? err.message : String(err);
}

async function act(
  req: ChallengeRequest,
  choice: ZoneChoice,
  deps: SolverDeps,
): Promise<ChallengeResult> {
  const { client, markerKey } = await deps.connect(choice.zone);
  const record = { zoneId: choice.zoneId, name: choice.relativeName, value: req.key };
  if (req.action === 'Present')
    return (await presentChallenge(client, markerKey, record, deps.signal)) ? 'written' : 'present';
  return (await cleanUpChallenge(client, markerKey, record, deps.signal)) > 0
    ? 'removed'
    : 'absent';
}

/** A CleanUp with no zone to clean in has nothing to do: cert-manager must not wait for it. */
function refusalOutcome(req: ChallengeRequest, err: ChallengeRefused): SolveOutcome {
  if (req.action === 'CleanUp' && err.reason === SolverReason.NoZone)
    return { response: { uid: req.uid, success: true }, result: 'absent' };
  return { response: failure(req, err.reason, err.message), result: 'refused' };
}

/** Solves one challenge (see the module comment). Never throws. */
export async function solveChallenge(
  req: ChallengeRequest,
  deps: SolverDeps,
): Promise<SolveOutcome> {
  if (req.type !== DNS01) {
    const message = `cannot solve a ${req.type} challenge: this solver does ${DNS01} only`;
    return { response: failure(req, 'UnsupportedChallengeType', message), result: 'refused' };
  }
  let choice: ZoneChoice;
  try {
    choice = chooseZone(req.resourceNamespace, req.resolvedFQDN, deps.dnsZones());
  } catch (err) {
    if (err instanceof ChallengeRefused) return refusalOutcome(req, err);
    throw err;
  }
  const zone = {
    namespace: choice.zone.metadata.namespace,
    name: choice.zone.metadata.name,
    id: choice.zoneId,
  };
  try {
    const result = await act(req, choice, deps);
    return { response: { uid: req.uid, success: true }, result, zone };
  } catch (err) {
    const message = `cannot ${req.action === 'Present' ? 'write' : 'remove'} the challenge record in DnsZone ${zone.namespace}/${zone.name}: ${platformMessage(err)}`;
    return { response: failure(req, SolverReason.Failed, message), result: 'failed', zone };
  }
}
