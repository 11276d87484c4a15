/**
 * A DnsZone with `recordPolicy: Exact` never deletes a DNS-01 challenge record the solver wrote
 * (issue 52): proven by its signed comment (cdn/acme-challenge-records.ts), so a record merely
 * carrying the comment's prefix, or any other unlisted record, is still deleted. Failing first:
 * before, the challenge record was deleted like any unlisted record — mid-validation.
 */
import test from 'ava';
import {
  challengeComment,
  CHALLENGE_COMMENT_PREFIX,
} from '../../../../src/cdn/acme-challenge-records.js';
import { markerKeyFor } from '../../../../src/cdn/credentials.js';
import { ClaimIndex } from '../../../../src/runtime/claims.js';
import { API_KEY, startWorld, Subject, type World } from '../kit/world.js';

let world: World;

test.before(async () => {
  world = await startWorld();
});

test.after.always(async () => {
  await world?.close();
});

test('an Exact zone deletes unlisted records but not a challenge record the solver signed', async (t) => {
  const s = new Subject(world, { kind: 'DnsZone', claims: new ClaimIndex() }, 'exact', {
    domain: `exact-${process.pid}.example.net`,
    recordPolicy: 'Exact',
  });
  await s.settle();
  t.true(s.ready(), JSON.stringify(s.obj.status?.conditions));
  const zoneId = Number(s.id('dnsZoneId'));
  const challenge = { zoneId, name: '_acme-challenge.www', value: 'challenge-key' };
  await world.client.addDnsRecord(zoneId, {
    Type: 3,
    Name: challenge.name,
    Value: challenge.value,
    Comment: challengeComment(markerKeyFor(API_KEY), challenge),
  });
  await world.client.addDnsRecord(zoneId, {
    Type: 3,
    Name: '_acme-challenge.www',
    Value: 'forged',
    Comment: `${CHALLENGE_COMMENT_PREFIX}not-a-proof`,
  });
  await world.client.addDnsRecord(zoneId, { Type: 3, Name: 'stray', Value: 'unlisted' });
  await s.pass();
  const left = ((await world.client.getDnsZone(zoneId)).Records ?? []).map((r) => r.Value);
  t.deepEqual(left, ['challenge-key']);
});
