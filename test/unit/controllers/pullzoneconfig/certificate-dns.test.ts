/**
 * Certificates follow DNS: a free certificate the platform refuses because the hostname's DNS
 * does not point at the zone yet is a pending certificate retried with a bounded backoff (30 s
 * doubling to 5 min), never a spec error, and is issued on the first retry after the record
 * appears. The wait is reported in CertificatesReady beside Ready, never by holding Ready at
 * False. Against an in-process cdn-sim with its DNS check on (the default).
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import {
  certificateRetryDelayMs,
  DNS_RETRY_MAX_MS,
  DNS_RETRY_MIN_MS,
  FREE_CERTIFICATE_RETRY_MS,
} from '../../../../src/controllers/pullzoneconfig/hostnames.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import type { Observation } from '../../../../src/runtime/types.js';
import { runPass, simExternal } from './sim-pass.js';

const API_KEY = 'pzc-cert-dns-key';
let sim: SimulatorHandle;
let client: CdnClient;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
});

test.after.always(async () => {
  await sim?.close();
});

const delays: [number | undefined, number, string][] = [
  [undefined, FREE_CERTIFICATE_RETRY_MS, 'an accepted request is repeated after 10 minutes'],
  [0, FREE_CERTIFICATE_RETRY_MS, 'no refusal counted: the ordinary delay'],
  [1, DNS_RETRY_MIN_MS, 'first refusal: 30 s'],
  [2, 60_000, 'doubles'],
  [4, 240_000, 'doubles again'],
  [5, DNS_RETRY_MAX_MS, 'capped at 5 min'],
  [1000, DNS_RETRY_MAX_MS, 'stays capped (no overflow)'],
];
for (const [refusals, want, why] of delays) {
  test(`certificate retry delay after ${String(refusals)} refusals: ${why}`, (t) => {
    t.is(certificateRetryDelayMs(refusals), want);
  });
}

function zoneObject(name: string, hostname: string): PullZoneConfig {
  return {
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      settings: { originUrl: 'https://origin.example.com' },
      hostnames: [{ hostname, certificate: { type: 'Free' } }],
    },
  };
}

const certificatesOf = (obs: Observation): Observation['conditions'] =>
  obs.conditions?.filter((c) => c.type === 'CertificatesReady');

async function certificateCalls(): Promise<number> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  const body = (await res.json()) as { log: { route: string }[] };
  return body.log.filter((c) => c.route.includes('loadFreeCertificate')).length;
}

test.serial(
  'a certificate refused for its DNS stays pending, backs off, and is issued once a record points the hostname at the zone',
  async (t) => {
    let now = new Date('2026-11-25T12:00:00Z');
    const ext = simExternal(client, () => now);
    const host = 'www.follow-dns.example';
    let { obj } = await runPass(ext, zoneObject('pzc-follow-dns', host));
    // Second pass: hostname added, the certificate requested and refused (no record yet).
    ({ obj } = await runPass(ext, obj));
    t.like(obj.status?.hostnames?.[0]?.certificate, { state: 'Pending', dnsRefusals: 1 });
    t.is(await certificateCalls(), 1);

    // Within the backoff: in sync, Ready (the zone serves), CertificatesReady=False, no request.
    now = new Date(now.getTime() + 10_000);
    const waiting = await runPass(ext, obj);
    t.true(waiting.obs.upToDate, JSON.stringify(waiting.obs.diff));
    t.is(waiting.obs.notReady, undefined, 'a pending certificate does not hold Ready');
    const [pending] = certificatesOf(waiting.obs) ?? [];
    t.like(pending, { status: 'False', reason: 'CertificatePending' });
    t.regex(pending?.message ?? '', /does not point to the pull zone yet.*b-cdn\.net/);
    t.is(waiting.obs.requeueAfterMs, 20_000, 'looked at again when the 30 s retry is due');
    t.is(await certificateCalls(), 1, 'no request before the backoff ends');

    // After 30 s: asked again, refused again, the next wait doubles.
    now = new Date(now.getTime() + 25_000);
    ({ obj } = await runPass(ext, waiting.obj));
    t.is(await certificateCalls(), 2);
    t.like(obj.status?.hostnames?.[0]?.certificate, { state: 'Pending', dnsRefusals: 2 });
    now = new Date(now.getTime() + 45_000);
    ({ obj } = await runPass(ext, obj));
    t.is(await certificateCalls(), 2, 'second wait is 60 s');

    // The record appears: the next retry is accepted and the certificate issued.
    const zone = await client.addDnsZone({ Domain: 'follow-dns.example' });
    const cdnHostname = String(obj.status?.cdnHostname);
    await client.addDnsRecord(Number(zone.Id), { Type: 2, Name: 'www', Value: cdnHostname });
    now = new Date(now.getTime() + 20_000);
    ({ obj } = await runPass(ext, obj));
    t.is(await certificateCalls(), 3);
    const done = await runPass(ext, obj);
    t.true(done.obs.upToDate);
    t.is(done.obs.notReady, undefined);
    t.like(certificatesOf(done.obs), [{ status: 'True', reason: 'CertificatesIssued' }]);
    t.is(done.obs.requeueAfterMs, undefined, 'nothing pending: the ordinary poll');
    t.deepEqual(done.obj.status?.hostnames?.[0]?.certificate, { type: 'Free', state: 'Issued' });
  },
);
