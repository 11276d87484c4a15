/**
 * Certificates for origins with the operator's DNS-01 solver (issue 52), end to end with real
 * cert-manager controllers and Pebble (both built from their Go modules), the operator and
 * cdn-sim answering DNS (setup.ts): a Certificate of namespace `shop` for a name of its DnsZone
 * gets its TXT record written in the simulated zone (seen over DNS), is issued, and the record is
 * removed; a wildcard certificate with its apex too (two challenges for one name, each with its
 * own record; cert-manager schedules them one after the other, so their CleanUp races are left
 * to test/unit/solver).
 * Refused: a Certificate of a namespace with no DnsZone for the name, and a name in a zone the
 * platform serves but no DnsZone object stands for; neither writes a record.
 */
import test, { type ExecutionContext } from 'ava';
import { X509Certificate } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import {
  apply,
  deleteObject,
  getObject,
  listObjects,
  waitFor,
  waitForCondition,
} from '../support/kube.js';
import { metricValue } from '../support/operator.js';
import { callCount, writesSince } from '../support/sim-log.js';
import { API_KEY, DOMAIN, SHOP, startCertificatesEnv, type CertificatesEnv } from './setup.js';

const CERT = 'certificates.cert-manager.io';
const CHALLENGE = 'challenges.acme.cert-manager.io';
/** A zone the account has on the platform that no DnsZone object stands for. */
const UNKNOWN_DOMAIN = 'elsewhere.example.org';
let env: CertificatesEnv;

test.before(async () => {
  env = await startCertificatesEnv();
  const res = await fetch(`${env.sim.url}/dnszone`, {
    method: 'POST',
    headers: { AccessKey: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ Domain: UNKNOWN_DOMAIN }),
  });
  if (!res.ok) throw new Error(`cannot create zone ${UNKNOWN_DOMAIN} in cdn-sim: ${res.status}`);
});

test.after.always(async () => {
  await env?.stop();
});

function certificateJson(ns: string, name: string, dnsNames: string[]): string {
  return JSON.stringify({
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name, namespace: ns },
    spec: {
      secretName: `${name}-tls`,
      dnsNames,
      issuerRef: { name: 'pebble', kind: 'Issuer', group: 'cert-manager.io' },
    },
  });
}

/** The challenge TXT records of the shop zone in cdn-sim's state, as `name=value`. */
function challengeRecords(): string[] {
  return (env.sim.state.dnsZones.get(env.zoneId)?.records ?? [])
    .filter((r) => String(r.Name).startsWith('_acme-challenge'))
    .map((r) => `${String(r.Name)}=${String(r.Value)}`);
}

/** The TXT values of `fqdn` as cdn-sim's DNS listener answers them. */
async function txtOverDns(fqdn: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([env.sim.dnsAddress ?? '']);
  try {
    return (await resolver.resolveTxt(fqdn)).map((chunks) => chunks.join(''));
  } catch {
    return [];
  }
}

/** Issues a certificate; records the TXT values seen over DNS while its challenges were open. */
async function issue(t: ExecutionContext, name: string, dnsNames: string[]): Promise<Set<string>> {
  // cert-manager takes a wildcard and its apex one challenge after the other: about 2 minutes here.
  t.timeout(300_000);
  const challengeName = `_acme-challenge.${dnsNames[0]!.replace(/^\*\./, '')}`;
  const seen = new Set<string>();
  await apply(certificateJson(SHOP, name, dnsNames));
  const ready = waitForCondition(CERT, SHOP, name, 'Ready', 'True', undefined, 150_000);
  let done = false;
  void ready.finally(() => (done = true)).catch(() => undefined);
  while (!done) {
    for (const value of await txtOverDns(challengeName)) seen.add(value);
    await new Promise((r) => setTimeout(r, 100));
  }
  await ready.catch(async (err: unknown) => {
    t.log(await env.certManager.logTail(30));
    throw err;
  });
  return seen;
}

async function issuedNames(name: string): Promise<string[]> {
  const secret = await getObject('secret', SHOP, `${name}-tls`);
  const pem = Buffer.from(
    String((secret?.['data'] as Record<string, string>)['tls.crt']),
    'base64',
  );
  const san = new X509Certificate(pem).subjectAltName ?? '';
  return san
    .split(', ')
    .map((s) => s.replace(/^DNS:/, ''))
    .sort();
}

test.serial(
  'a Certificate of shop for origin.shop.example.com: TXT record over DNS, issued, record removed',
  async (t) => {
    const seen = await issue(t, 'origin', [`origin.${DOMAIN}`]);
    t.is(seen.size, 1, 'one challenge value was served over DNS while the challenge was open');
    t.deepEqual(await issuedNames('origin'), [`origin.${DOMAIN}`]);
    await waitFor(() => challengeRecords().length === 0, 30_000, 'the challenge record removed');
    t.deepEqual(await txtOverDns(`_acme-challenge.origin.${DOMAIN}`), []);
    t.true(
      env.sim.state.dnsZones.get(env.zoneId)?.records.some((r) => r.Name === 'origin') ?? false,
      'the zone’s own record is untouched',
    );
  },
);

test.serial(
  'a wildcard certificate with its apex: a challenge each for one name, both values served over DNS, issued, records removed',
  async (t) => {
    const seen = await issue(t, 'wildcard', [`*.${DOMAIN}`, DOMAIN]);
    t.is(seen.size, 2, 'both challenge values were served over DNS for one name');
    t.deepEqual(await issuedNames('wildcard'), [`*.${DOMAIN}`, DOMAIN].sort());
    await waitFor(() => challengeRecords().length === 0, 30_000, 'the challenge records removed');
  },
);

/** Waits for the Challenge of Certificate `ns/name` to carry a reason matching `pattern`. */
function refusedChallenge(ns: string, pattern: RegExp): Promise<string> {
  return waitFor(
    async () => {
      const reason = (await listObjects(CHALLENGE, ns))
        .map((c) => c.status?.['reason'])
        .filter((r): r is string => typeof r === 'string')
        .find((r) => pattern.test(r));
      return reason;
    },
    90_000,
    `a Challenge in ${ns} refused with ${pattern}`,
    250,
  );
}

const refusals = [
  {
    title: 'a Certificate of a namespace with no DnsZone for the name is refused',
    ns: (): string => env.other,
    dnsName: `intruder.${DOMAIN}`,
    reason: (): RegExp => new RegExp(`no DnsZone in namespace ${env.other} contains it`),
  },
  {
    title: 'a name in a zone the platform serves but no DnsZone object stands for is refused',
    ns: (): string => SHOP,
    dnsName: `origin.${UNKNOWN_DOMAIN}`,
    reason: (): RegExp => new RegExp(`no DnsZone in namespace ${SHOP} contains it`),
  },
];

for (const c of refusals) {
  test.serial(`${c.title}; no record is written`, async (t) => {
    const mark = callCount(env.sim);
    await apply(certificateJson(c.ns(), 'refused', [c.dnsName]));
    const reason = await refusedChallenge(c.ns(), c.reason());
    t.regex(reason, /cannot solve the DNS-01 challenge/);
    t.notRegex(reason, new RegExp(API_KEY), 'no key in the Challenge status');
    t.deepEqual(
      writesSince(env.sim, mark).filter((w) => /\/records/.test(w)),
      [],
      'no record write reached cdn-sim',
    );
    t.deepEqual(challengeRecords(), []);
    const refused = metricValue(
      await env.operator.metrics(),
      'cdn_operator_dns01_challenges_total',
      {
        action: 'Present',
        result: 'refused',
      },
    );
    t.true((refused ?? 0) >= 1, 'the refusal is counted');
    await deleteObject(CERT, c.ns(), 'refused');
  });
}
