/** The status of a CdnPolicy (src/composition/policy-status.ts). */
import test from 'ava';
import { policyStatus } from '../../../src/composition/policy-status.js';
import type { Composition } from '../../../src/controllers/cdnpolicy/compose.js';
import type { CdnPolicy } from '../../../src/controllers/cdnpolicy/types.js';

const policy: CdnPolicy = {
  metadata: { name: 'cdn', namespace: 'ns', generation: 3 },
  spec: { dnsZoneRefs: [{ name: 'z' }] },
};
const ref = { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: 'ns', name: 'web' };
const taken: Composition = {
  objects: [],
  refusals: [],
  pending: [],
  targets: [{ ref, accepted: true, reason: 'Accepted', message: 'ok' }],
};
const now = new Date('2026-11-29T12:00:00Z');

const CASES: Array<{
  title: string;
  c: Composition;
  generated: Array<{ kind: string; name: string; ready: boolean }>;
  error?: string;
  accepted: string;
  ready: string;
}> = [
  {
    title: 'every object Ready: Accepted and Ready',
    c: taken,
    generated: [{ kind: 'PullZoneConfig', name: 'a', ready: true }],
    accepted: 'True/Accepted',
    ready: 'True/Ready',
  },
  {
    title: 'one object not Ready: Progressing',
    c: taken,
    generated: [
      { kind: 'PullZoneConfig', name: 'a', ready: true },
      { kind: 'DnsRecord', name: 'b', ready: false },
    ],
    accepted: 'True/Accepted',
    ready: 'False/Progressing',
  },
  {
    title: 'a refusal: Accepted=False with its reason',
    c: { ...taken, refusals: [{ reason: 'HostnameNotInZones', message: 'x' }] },
    generated: [],
    accepted: 'False/HostnameNotInZones',
    ready: 'True/Ready',
  },
  {
    title: 'no address yet: Ready=False AddressPending',
    c: { ...taken, pending: ['HTTPRoute web'] },
    generated: [],
    accepted: 'True/Accepted',
    ready: 'False/AddressPending',
  },
  {
    title: 'an apply refused: Ready=False ApplyFailed',
    c: taken,
    generated: [],
    error: 'cannot apply PullZoneConfig a: invalid',
    accepted: 'True/Accepted',
    ready: 'False/ApplyFailed',
  },
];

for (const c of CASES) {
  test(c.title, (t) => {
    const s = policyStatus(policy, c.c, c.generated, now, c.error);
    const of = (type: string): string => {
      const x = s.conditions?.find((k) => k.type === type);
      return `${x?.status}/${x?.reason}`;
    };
    t.is(of('Accepted'), c.accepted);
    t.is(of('Ready'), c.ready);
    t.is(s.observedGeneration, 3);
  });
}

test('ancestors: one PolicyAncestorStatus per target, with the controller name', (t) => {
  const s = policyStatus(policy, taken, [], now);
  t.deepEqual(s.ancestors?.[0]?.ancestorRef, ref);
  t.is(s.ancestors?.[0]?.controllerName, 'cdn.operator.io/routes');
  t.like(s.ancestors?.[0]?.conditions[0], { type: 'Accepted', status: 'True' });
});

test('an unchanged outcome gives an equal status (no write)', (t) => {
  const first = policyStatus(policy, taken, [], now);
  const again = policyStatus(
    { ...policy, status: first },
    taken,
    [],
    new Date('2026-11-30T00:00:00Z'),
  );
  t.deepEqual(again, first);
});
