/**
 * CertificatesReady, the condition beside Ready that reports the custom hostnames'
 * certificates (a pending certificate never holds Ready at False), and when a zone with a
 * pending certificate is looked at again. Pure: hostname status in, condition and delay out.
 */
import test from 'ava';
import {
  certificateRecheckMs,
  certificatesCondition,
  PENDING_CHECK_MS,
} from '../../../../src/controllers/pullzoneconfig/certificate-dns.js';
import type {
  HostnameSpec,
  HostnameStatus,
  PullZoneConfig,
} from '../../../../src/controllers/pullzoneconfig/types.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const secondsAgo = (s: number): string => new Date(NOW.getTime() - s * 1000).toISOString();

function zone(hostnames: HostnameSpec[], conditionTypes: string[] = []): PullZoneConfig {
  return {
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name: 'z', namespace: 'default', generation: 4 },
    spec: { hostnames },
    status: {
      conditions: conditionTypes.map((type) => ({
        type,
        status: 'False' as const,
        reason: 'CertificatePending',
        message: '',
        lastTransitionTime: secondsAgo(60),
      })),
    },
  };
}

function host(hostname: string, certificate: HostnameStatus['certificate']): HostnameStatus {
  return { hostname, addedByOperator: true, forceSSL: false, certificate };
}

const free: HostnameSpec = { hostname: 'cdn.a.example', certificate: { type: 'Free' } };
const issued = host('cdn.a.example', { type: 'Free', state: 'Issued' });
const requested = host('cdn.a.example', {
  type: 'Free',
  state: 'Pending',
  lastRequestTime: secondsAgo(5),
});
const refused = host('cdn.a.example', {
  type: 'Free',
  state: 'Pending',
  lastRequestTime: secondsAgo(10),
  dnsRefusals: 1,
});

const conditionCases: {
  name: string;
  obj: PullZoneConfig;
  hostnames: HostnameStatus[];
  want: { status: string; reason: string; message: RegExp } | undefined;
}[] = [
  {
    name: 'no hostname asks for a certificate and none ever did: no condition at all',
    obj: zone([{ hostname: 'cdn.a.example' }]),
    hostnames: [host('cdn.a.example', { type: 'None', state: 'None' })],
    want: undefined,
  },
  {
    name: 'the certificate is issued',
    obj: zone([free]),
    hostnames: [issued],
    want: { status: 'True', reason: 'CertificatesIssued', message: /has it/ },
  },
  {
    name: 'requested, not issued yet',
    obj: zone([free]),
    hostnames: [requested],
    want: {
      status: 'False',
      reason: 'CertificatePending',
      message: /^Waiting for .*cdn\.a\.example$/,
    },
  },
  {
    name: 'refused for its DNS: the message names the CNAME target',
    obj: zone([free]),
    hostnames: [refused],
    want: {
      status: 'False',
      reason: 'CertificatePending',
      message: /DNS of cdn\.a\.example does not point .*CNAME to z\.b-cdn\.net/,
    },
  },
  {
    name: 'the hostname is not on the zone yet (this pass adds it): not reported as issued',
    obj: zone([free]),
    hostnames: [],
    want: { status: 'False', reason: 'CertificatePending', message: /cdn\.a\.example/ },
  },
  {
    name: 'a custom certificate is in place where a free one is asked for: not yet as asked',
    obj: zone([free]),
    hostnames: [host('CDN.a.example', { type: 'Custom', state: 'Issued' })],
    want: { status: 'False', reason: 'CertificatePending', message: /cdn\.a\.example/ },
  },
  {
    name: 'hostnames compare case-insensitively',
    obj: zone([{ hostname: 'CDN.A.example', certificate: { type: 'Free' } }]),
    hostnames: [issued],
    want: { status: 'True', reason: 'CertificatesIssued', message: /has it/ },
  },
  {
    name: 'the hostname asking was removed from the spec: the shown condition turns True',
    obj: zone([], ['CertificatesReady']),
    hostnames: [],
    want: { status: 'True', reason: 'CertificatesIssued', message: /has it/ },
  },
];

for (const c of conditionCases) {
  test(`CertificatesReady: ${c.name}`, (t) => {
    const got = certificatesCondition(c.obj, c.hostnames, 'z.b-cdn.net');
    if (!c.want) return t.is(got, undefined);
    t.like(got, {
      type: 'CertificatesReady',
      status: c.want.status,
      reason: c.want.reason,
      observedGeneration: 4,
    });
    t.regex(got?.message ?? '', c.want.message);
  });
}

const recheckCases: {
  name: string;
  hostnames: HostnameStatus[];
  requesting: boolean;
  want: number | undefined;
}[] = [
  {
    name: 'nothing pending: the ordinary poll',
    hostnames: [issued],
    requesting: false,
    want: undefined,
  },
  {
    name: 'this pass requests a certificate: looked at soon after',
    hostnames: [],
    requesting: true,
    want: PENDING_CHECK_MS,
  },
  {
    name: 'requested and unanswered: every 15 s',
    hostnames: [requested],
    requesting: false,
    want: PENDING_CHECK_MS,
  },
  {
    name: 'refused for its DNS: when the 30 s retry is due, not before',
    hostnames: [refused],
    requesting: false,
    want: 20_000,
  },
  {
    name: 'refused and the retry is overdue: at once',
    hostnames: [
      { ...refused, certificate: { ...refused.certificate, lastRequestTime: secondsAgo(90) } },
    ],
    requesting: false,
    want: 0,
  },
  {
    name: 'the soonest of several hostnames',
    hostnames: [refused, { ...requested, hostname: 'b.example' }],
    requesting: false,
    want: PENDING_CHECK_MS,
  },
];

for (const c of recheckCases) {
  test(`certificate recheck: ${c.name}`, (t) => {
    t.is(certificateRecheckMs(c.hostnames, c.requesting, NOW), c.want);
  });
}
