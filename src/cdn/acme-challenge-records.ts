/**
 * The TXT records of DNS-01 challenges, owned by the challenge that wrote them: Present writes
 * one record per (name, key) — idempotent on retries, and two challenges for one name (a
 * certificate for `x` and `*.x`) keep a record each — and CleanUp deletes only the record of its
 * own key, never another record, not even a TXT record of the same name and value that the
 * solver did not write.
 *
 * A record the solver wrote carries a proof in its comment: an HMAC, under the account's marker
 * key (credentials.ts), of the zone, the name and the value. Nobody without the API key can
 * make it, so it tells the solver's records apart (CleanUp, and a DnsZone whose `recordPolicy:
 * Exact` must leave them alone: {@link isChallengeRecord}).
 */
import { createHmac } from 'node:crypto';
import type { CdnClient } from './client.js';
import { isCdnApiError } from './errors.js';
import type { DnsRecord } from './dns-types.js';

/** The prefix of the comment of a challenge record. */
export const CHALLENGE_COMMENT_PREFIX = 'cdn-operator acme-challenge ';

/** TXT (the platform's record type 3). */
const TXT = 3;

/** A short TTL: resolvers should not keep a challenge value after CleanUp. */
const CHALLENGE_TTL = 60;

/** Where a challenge record lives and what it holds. */
export interface ChallengeRecord {
  zoneId: number;
  /** Relative to the zone (`_acme-challenge.origin`). */
  name: string;
  /** The challenge key (the TXT value). */
  value: string;
}

/** The comment proving the solver wrote `r` (see the module comment). */
export function challengeComment(markerKey: Uint8Array, r: ChallengeRecord): string {
  const mac = createHmac('sha256', markerKey)
    .update(`acme-challenge/v1\0${r.zoneId}\0${r.name.toLowerCase()}\0${r.value}`)
    .digest('base64url')
    .slice(0, 22);
  return `${CHALLENGE_COMMENT_PREFIX}${mac}`;
}

/** True when `record` of zone `zoneId` is a challenge record the solver wrote. */
export function isChallengeRecord(
  markerKey: Uint8Array,
  zoneId: number,
  record: DnsRecord,
): boolean {
  if (record.Type !== TXT || typeof record.Comment !== 'string') return false;
  const r = { zoneId, name: String(record.Name ?? ''), value: String(record.Value ?? '') };
  return record.Comment === challengeComment(markerKey, r);
}

function sameName(a: string | null | undefined, b: string): boolean {
  return (a ?? '').toLowerCase() === b.toLowerCase();
}

/** The solver's records of `r` in the zone now. */
async function findOwn(
  client: CdnClient,
  markerKey: Uint8Array,
  r: ChallengeRecord,
  signal?: AbortSignal,
): Promise<DnsRecord[]> {
  const zone = await client.getDnsZone(r.zoneId, signal ? { signal } : undefined);
  return (zone.Records ?? []).filter(
    (rec) =>
      sameName(rec.Name, r.name) &&
      rec.Value === r.value &&
      isChallengeRecord(markerKey, r.zoneId, rec),
  );
}

/** Writes the challenge record unless it is there already; answers whether it wrote. */
export async function presentChallenge(
  client: CdnClient,
  markerKey: Uint8Array,
  r: ChallengeRecord,
  signal?: AbortSignal,
): Promise<boolean> {
  if ((await findOwn(client, markerKey, r, signal)).length > 0) return false;
  await client.addDnsRecord(
    r.zoneId,
    {
      Type: TXT,
      Name: r.name,
      Value: r.value,
      Ttl: CHALLENGE_TTL,
      Comment: challengeComment(markerKey, r),
    },
    signal ? { signal } : undefined,
  );
  return true;
}

/** Deletes the challenge's own record(s); answers how many. */
export async function cleanUpChallenge(
  client: CdnClient,
  markerKey: Uint8Array,
  r: ChallengeRecord,
  signal?: AbortSignal,
): Promise<number> {
  const own = await findOwn(client, markerKey, r, signal);
  for (const rec of own) {
    try {
      await client.deleteDnsRecord(r.zoneId, Number(rec.Id), signal ? { signal } : undefined);
    } catch (err) {
      // Gone already (a retried CleanUp): what CleanUp wants.
      if (!isCdnApiError(err) || err.status !== 404) throw err;
    }
  }
  return own.length;
}
