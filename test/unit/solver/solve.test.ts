/**
 * The DNS-01 solver's core (issue 52), against cdn-sim (strict) with its DNS listener: the zone
 * comes from the DnsZone objects of the challenge's namespace only; Present writes one signed TXT
 * record per key (idempotent; two challenges for one name both kept), visible over DNS at once;
 * CleanUp removes only its own record (not another challenge's, not a same-valued record made
 * by hand); refusals say why and write nothing.
 */
import test from 'ava';
import { Resolver } from 'node:dns/promises';
import { CdnClient } from '../../../src/cdn/client.js';
import { challengeComment, isChallengeRecord } from '../../../src/cdn/acme-challenge-records.js';
import { markerKeyFor } from '../../../src/cdn/credentials.js';
import type { ChallengeRequest } from '../../../src/solver/challenge.js';
import { solveChallenge, type SolverDeps } from '../../../src/solver/solve.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { startTestSim, TEST_KEY } from '../../support/sim-client.js';

let sim: SimulatorHandle;
let client: CdnClient;
let resolver: Resolver;
const markerKey = markerKeyFor(TEST_KEY);
const ids: Record<string, number> = {};

test.before(async () => {
  sim = await startTestSim({ dns: {} });
  client = new CdnClient({ baseUrl: sim.url, credentials: TEST_KEY, retry: { maxAttempts: 1 } });
  for (const domain of ['shop.example.com', 'eu.shop.example.com', 'other.example.com'])
    ids[domain] = Number((await client.addDnsZone({ Domain: domain })).Id);
  resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([sim.dnsAddress!]);
});

test.after.always(async () => {
  client?.close();
  await sim?.close();
});

/** A DnsZone object of `namespace` standing for `domain` (Synced unless said otherwise). */
function zoneObject(
  namespace: string,
  domain: string,
  synced: 'True' | 'False' = 'True',
): ManagedObject {
  return {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsZone',
    metadata: { name: domain.split('.')[0]!, namespace },
    spec: { domain },
    status: {
      dnsZoneId: ids[domain],
      domain,
      conditions: [
        { type: 'Synced', status: synced, reason: 'X', message: '', lastTransitionTime: '' },
      ],
    },
  };
}

/** The zone objects (built once the zones exist). */
const zones = (): ManagedObject[] => [
  zoneObject('shop', 'shop.example.com'),
  zoneObject('shop', 'eu.shop.example.com'),
  zoneObject('other', 'other.example.com'),
];

function deps(objects: readonly ManagedObject[] = zones()): SolverDeps & { connects: number } {
  const d = {
    connects: 0,
    dnsZones: () => objects,
    connect: () => {
      d.connects++;
      return Promise.resolve({ client, markerKey });
    },
  };
  return d;
}

function request(over: Partial<ChallengeRequest>): ChallengeRequest {
  return {
    uid: 'u1',
    action: 'Present',
    type: 'dns-01',
    dnsName: 'origin.shop.example.com',
    key: 'key-one',
    resourceNamespace: 'shop',
    resolvedFQDN: '_acme-challenge.origin.shop.example.com.',
    resolvedZone: 'example.com.',
    ...over,
  };
}

async function txtAt(fqdn: string): Promise<string[]> {
  try {
    return (await resolver.resolveTxt(fqdn)).map((chunks) => chunks.join('')).sort();
  } catch {
    return [];
  }
}

const writes = (): number => sim.calls.snapshot().log.filter((c) => c.method !== 'GET').length;

test.serial(
  'Present writes a signed TXT record in the most specific zone of the namespace, visible over DNS',
  async (t) => {
    const out = await solveChallenge(request({}), deps());
    t.deepEqual(out.response, { uid: 'u1', success: true });
    t.is(out.result, 'written');
    t.like(out.zone, { namespace: 'shop', id: ids['shop.example.com'] });
    t.deepEqual(await txtAt('_acme-challenge.origin.shop.example.com'), ['key-one']);
    const eu = await solveChallenge(
      request({ resolvedFQDN: '_acme-challenge.eu.shop.example.com.', key: 'key-eu' }),
      deps(),
    );
    t.like(eu.zone, { id: ids['eu.shop.example.com'] }, 'the delegated sub-zone, not the parent');
    const records = (await client.getDnsZone(ids['eu.shop.example.com']!)).Records ?? [];
    const rec = records.find((r) => r.Value === 'key-eu')!;
    t.is(rec.Name, '_acme-challenge');
    t.true(isChallengeRecord(markerKey, ids['eu.shop.example.com']!, rec));
  },
);

test.serial(
  'Present again (a retry) writes nothing; a second challenge for the name keeps both',
  async (t) => {
    const before = writes();
    t.is((await solveChallenge(request({}), deps())).result, 'present');
    t.is(writes(), before, 'idempotent');
    const wildcard = await solveChallenge(
      request({ key: 'key-two', dnsName: '*.origin.shop.example.com' }),
      deps(),
    );
    t.is(wildcard.result, 'written');
    t.deepEqual(await txtAt('_acme-challenge.origin.shop.example.com'), ['key-one', 'key-two']);
  },
);

test.serial(
  'CleanUp removes only its own record: not the other challenge, not a record made by hand',
  async (t) => {
    const zoneId = ids['shop.example.com']!;
    await client.addDnsRecord(zoneId, {
      Type: 3,
      Name: '_acme-challenge.origin',
      Value: 'key-one',
      Ttl: 60,
    });
    const out = await solveChallenge(request({ action: 'CleanUp' }), deps());
    t.deepEqual(out.response, { uid: 'u1', success: true });
    t.is(out.result, 'removed');
    t.deepEqual(
      await txtAt('_acme-challenge.origin.shop.example.com'),
      ['key-one', 'key-two'],
      'the hand-made key-one and key-two stay',
    );
    const again = await solveChallenge(request({ action: 'CleanUp' }), deps());
    t.is(again.result, 'absent', 'a retried CleanUp succeeds and deletes nothing');
    t.true(again.response.success);
  },
);

const REFUSALS: Array<{
  why: string;
  req: Partial<ChallengeRequest>;
  zones?: () => ManagedObject[];
  reason: string;
  text: RegExp;
}> = [
  {
    why: 'a name in no zone of the namespace (the zone of another namespace is not used)',
    req: { resolvedFQDN: '_acme-challenge.www.other.example.com.' },
    reason: 'NoDnsZoneForName',
    text: /no DnsZone in namespace shop contains it/,
  },
  {
    why: 'a namespace with no DnsZone at all, whatever cert-manager guessed as the zone',
    req: { resourceNamespace: 'intruder', resolvedZone: 'shop.example.com.' },
    reason: 'NoDnsZoneForName',
    text: /namespace intruder/,
  },
  {
    why: 'the zone object has not synced (refused, or not created yet)',
    req: { resolvedFQDN: '_acme-challenge.x.shop.example.com.', key: 'k-nr' },
    zones: () => [zoneObject('shop', 'shop.example.com', 'False')],
    reason: 'DnsZoneNotReady',
    text: /DnsZone shop\/shop has no zone id yet or its last pass failed/,
  },
  {
    why: 'an HTTP-01 challenge',
    req: { type: 'http-01' },
    reason: 'UnsupportedChallengeType',
    text: /dns-01 only/,
  },
];

for (const c of REFUSALS)
  test.serial(`Present is refused, nothing written: ${c.why}`, async (t) => {
    const before = writes();
    const d = deps(c.zones?.());
    const out = await solveChallenge(request(c.req), d);
    t.false(out.response.success);
    t.is(out.response.status?.reason, c.reason);
    t.regex(out.response.status?.message ?? '', c.text);
    t.is(writes(), before);
    t.is(d.connects, 0, 'no account was even connected');
  });

test.serial(
  'CleanUp with no zone left for the name succeeds (cert-manager must not wait on it)',
  async (t) => {
    const out = await solveChallenge(
      request({ action: 'CleanUp', resourceNamespace: 'gone' }),
      deps(),
    );
    t.true(out.response.success);
    t.is(out.result, 'absent');
  },
);

test.serial(
  'a platform error is a failed response naming the zone object, with no key in it',
  async (t) => {
    const out = await solveChallenge(request({ key: 'secret-looking-key' }), {
      dnsZones: zones,
      connect: () =>
        Promise.resolve({
          client: new CdnClient({
            baseUrl: sim.url,
            credentials: 'wrong-key',
            retry: { maxAttempts: 1 },
          }),
          markerKey,
        }),
    });
    t.false(out.response.success);
    t.is(out.response.status?.reason, 'PlatformError');
    t.regex(out.response.status!.message, /DnsZone shop\/shop/);
    t.notRegex(out.response.status!.message, /secret-looking-key|wrong-key/);
  },
);

test('the comment is a proof: another value, name or zone gives another comment', (t) => {
  const r = { zoneId: 1, name: '_acme-challenge', value: 'v' };
  const base = challengeComment(markerKey, r);
  t.not(challengeComment(markerKey, { ...r, value: 'w' }), base);
  t.not(challengeComment(markerKey, { ...r, name: '_acme-challenge.x' }), base);
  t.not(challengeComment(markerKey, { ...r, zoneId: 2 }), base);
  t.not(challengeComment(markerKeyFor('another key'), r), base);
  t.is(
    challengeComment(markerKey, { ...r, name: '_ACME-challenge' }),
    base,
    'names compare without case',
  );
});

test.serial('nothing cdn-sim received was rejected by the documents', (t) => {
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0);
});
