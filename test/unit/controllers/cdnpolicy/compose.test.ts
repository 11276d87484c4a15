/**
 * The composition of a CdnPolicy (src/controllers/cdnpolicy/compose.ts): the objects made for
 * a route and each refusal, table-driven, without Kubernetes.
 */
import test from 'ava';
import {
  composePolicy,
  originUrlOf,
  type CompositionInput,
} from '../../../../src/controllers/cdnpolicy/compose.js';
import type { RouteObject } from '../../../../src/controllers/cdnpolicy/routes.js';
import {
  CDN_POLICY_ANNOTATION,
  type CdnPolicy,
} from '../../../../src/controllers/cdnpolicy/types.js';

const NS = 'shop';

function policy(
  name: string,
  spec: Partial<CdnPolicy['spec']> = {},
  created = '2026-01-01T00:00:00Z',
): CdnPolicy {
  return {
    metadata: { name, namespace: NS, uid: `uid-${name}`, creationTimestamp: created },
    spec: {
      targetRefs: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'web' }],
      dnsZoneRefs: [{ name: 'example-com' }],
      ...spec,
    },
  };
}

const gateway: RouteObject = {
  metadata: { name: 'gw', namespace: NS },
  spec: { listeners: [{ name: 'http', hostname: 'gw.example.com' }] },
  status: { addresses: [{ type: 'IPAddress', value: '192.0.2.10' }] },
};
const route: RouteObject = {
  metadata: { name: 'web', namespace: NS },
  spec: { parentRefs: [{ name: 'gw' }], hostnames: ['www.example.com', 'Shop.Example.com'] },
};
const ingress: RouteObject = {
  metadata: { name: 'legacy', namespace: NS, annotations: { [CDN_POLICY_ANNOTATION]: 'cdn' } },
  spec: { rules: [{ host: 'legacy.example.com' }] },
  status: { loadBalancer: { ingress: [{ hostname: 'lb.example.net' }] } },
};

function input(p: CdnPolicy, more: Partial<CompositionInput> = {}): CompositionInput {
  return {
    policy: p,
    routes: { gateways: [gateway], httpRoutes: [route], ingresses: [] },
    zones: [{ name: 'example-com', domain: 'example.com' }],
    policies: [p],
    records: [],
    ...more,
  };
}

const names = (c: ReturnType<typeof composePolicy>): string[] =>
  c.objects.map((o) => `${o.kind}/${o.metadata.name}`);

test('an HTTPRoute behind a Gateway: a pull zone at the Gateway address, a record per hostname, a shield', (t) => {
  const c = composePolicy(input(policy('cdn', { shieldPolicy: { waf: { enabled: true } } })));
  t.deepEqual(c.refusals, []);
  t.deepEqual(names(c), [
    'PullZoneConfig/cdn-httproute-web',
    'DnsRecord/cdn-httproute-web-www.example.com',
    'DnsRecord/cdn-httproute-web-shop.example.com',
    'ShieldPolicy/cdn-httproute-web',
  ]);
  const pz = c.objects[0]!;
  t.deepEqual(pz.spec.settings, { originUrl: 'http://192.0.2.10' });
  t.deepEqual(pz.spec.hostnames, [
    { hostname: 'www.example.com', certificate: { type: 'Free' } },
    { hostname: 'shop.example.com', certificate: { type: 'Free' } },
  ]);
  t.is(pz.apiVersion, 'pullzones.cdn.operator.io/v1beta1');
  t.deepEqual(pz.metadata.labels, {
    'cdn.operator.io/cdn-policy': 'cdn',
    'cdn.operator.io/route-kind': 'HTTPRoute',
    'cdn.operator.io/route-name': 'web',
  });
  t.like(pz.metadata.ownerReferences[0], {
    kind: 'CdnPolicy',
    name: 'cdn',
    uid: 'uid-cdn',
    controller: true,
  });
  t.like(c.objects[1]!.spec, {
    dnsZoneRef: { name: 'example-com' },
    type: 'PullZone',
    name: 'www',
    pullZoneRef: { name: 'cdn-httproute-web' },
  });
  t.like(c.objects[3]!.spec, {
    pullZoneRef: { name: 'cdn-httproute-web' },
    deletionPolicy: 'Reset',
  });
  t.deepEqual(
    c.targets.map((x) => [x.ref.kind, x.ref.name, x.accepted]),
    [['HTTPRoute', 'web', true]],
  );
});

test('the Ingress annotation attaches the policy; origin is the load balancer hostname', (t) => {
  const c = composePolicy({
    ...input(policy('cdn', { targetRefs: [] })),
    routes: { gateways: [], httpRoutes: [], ingresses: [ingress] },
  });
  t.deepEqual(names(c), [
    'PullZoneConfig/cdn-ingress-legacy',
    'DnsRecord/cdn-ingress-legacy-legacy.example.com',
  ]);
  t.deepEqual(c.objects[0]!.spec.settings, { originUrl: 'http://lb.example.net' });
});

test('the template and the account go into every child; Orphan is passed on', (t) => {
  const c = composePolicy(
    input(
      policy('cdn', {
        accountRef: { name: 'team' },
        deletionPolicy: 'Orphan',
        origin: { scheme: 'HTTPS', port: 8443 },
        pullZone: { settings: { cacheErrorResponses: true }, edgeRulePolicy: 'Exact' },
        shieldPolicy: {},
      }),
    ),
  );
  t.like(c.objects[0]!.spec, {
    accountRef: { name: 'team' },
    deletionPolicy: 'Orphan',
    edgeRulePolicy: 'Exact',
    settings: { cacheErrorResponses: true, originUrl: 'https://192.0.2.10:8443' },
  });
  t.true(c.objects.every((o) => (o.spec.accountRef as { name: string }).name === 'team'));
  t.is(c.objects.at(-1)!.spec.deletionPolicy, 'Orphan');
});

test('a route without an address yet makes nothing and is pending', (t) => {
  const bare: RouteObject = { ...gateway, status: {} };
  const c = composePolicy({
    ...input(policy('cdn')),
    routes: { gateways: [bare], httpRoutes: [route], ingresses: [] },
  });
  t.deepEqual(c.objects, []);
  t.deepEqual(c.pending, ['HTTPRoute web']);
  t.true(c.targets[0]!.accepted);
});

test('origin URLs: IPv6 in brackets, scheme lower case', (t) => {
  t.is(originUrlOf('2001:db8::1', { scheme: 'HTTPS' }), 'https://[2001:db8::1]');
  t.is(originUrlOf('lb.example.net', undefined), 'http://lb.example.net');
});

/** Each refusal: what is refused, the reason, what is still made. */
const REFUSALS: Array<{
  title: string;
  input: () => CompositionInput;
  reasons: string[];
  objects: string[];
  target?: boolean;
}> = [
  {
    title:
      'a hostname outside the policy zones is reported, not published (nor put on the pull zone)',
    input: () => {
      const r = {
        ...route,
        spec: { ...route.spec, hostnames: ['www.example.com', 'www.other.org'] },
      };
      const p = policy('cdn');
      return { ...input(p), routes: { gateways: [gateway], httpRoutes: [r], ingresses: [] } };
    },
    reasons: ['HostnameNotInZones'],
    objects: ['PullZoneConfig/cdn-httproute-web', 'DnsRecord/cdn-httproute-web-www.example.com'],
  },
  {
    title:
      'a zone the namespace may not use is refused; hostnames only it covered are not published',
    input: () => ({ ...input(policy('cdn', { dnsZoneRefs: [{ name: 'their-zone' }] })) }),
    reasons: ['ZoneNotAllowed', 'HostnameNotInZones', 'HostnameNotInZones'],
    objects: ['PullZoneConfig/cdn-httproute-web'],
  },
  {
    title: 'a second, newer policy on the same route is refused; it makes nothing for it',
    input: () => {
      const newer = policy('late', {}, '2026-02-01T00:00:00Z');
      return { ...input(newer), policies: [policy('cdn'), newer] };
    },
    reasons: ['Conflicted'],
    objects: [],
    target: false,
  },
  {
    title: 'a route in another namespace is refused',
    input: () =>
      input(
        policy('cdn', {
          targetRefs: [
            {
              group: 'gateway.networking.k8s.io',
              kind: 'HTTPRoute',
              name: 'web',
              namespace: 'other',
            },
          ],
        }),
      ),
    reasons: ['TargetNotPermitted'],
    objects: [],
    target: false,
  },
  {
    title: 'a target that does not exist is reported',
    input: () =>
      input(
        policy('cdn', {
          targetRefs: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'nope' }],
        }),
      ),
    reasons: ['TargetNotFound'],
    objects: [],
    target: false,
  },
  {
    title: "a hostname another object's record publishes is not taken over",
    input: () => ({
      ...input(policy('cdn')),
      records: [{ namespace: 'team-b', name: 'www', hostname: 'www.example.com' }],
    }),
    reasons: ['HostnameTaken'],
    objects: ['PullZoneConfig/cdn-httproute-web', 'DnsRecord/cdn-httproute-web-shop.example.com'],
  },
  {
    title: 'a wildcard hostname is reported: one record and one free certificate need one name',
    input: () => {
      const r = { ...route, spec: { ...route.spec, hostnames: ['*.example.com'] } };
      return {
        ...input(policy('cdn')),
        routes: { gateways: [gateway], httpRoutes: [r], ingresses: [] },
      };
    },
    reasons: ['WildcardHostname'],
    objects: ['PullZoneConfig/cdn-httproute-web'],
  },
];

for (const c of REFUSALS) {
  test(`refused: ${c.title}`, (t) => {
    const out = composePolicy(c.input());
    t.deepEqual(
      out.refusals.map((r) => r.reason),
      c.reasons,
    );
    t.deepEqual(names(out), c.objects);
    if (c.target !== undefined) t.is(out.targets[0]?.accepted, c.target);
  });
}

test('the older policy keeps its route when a newer one targets it too', (t) => {
  const older = policy('cdn');
  const out = composePolicy({
    ...input(older),
    policies: [older, policy('late', {}, '2026-02-01T00:00:00Z')],
  });
  t.deepEqual(out.refusals, []);
  t.is(out.objects.length, 3);
});

test('records the policy made itself do not count as taken', (t) => {
  const out = composePolicy({
    ...input(policy('cdn')),
    records: [{ namespace: NS, name: 'x', hostname: 'www.example.com', policy: 'cdn' }],
  });
  t.deepEqual(out.refusals, []);
});
