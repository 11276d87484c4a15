/**
 * Route-driven CDN end to end (issue 51): the real apiserver with the Gateway API CRDs, a real
 * operator process run with --routes, cdn-sim. An HTTPRoute with two hostnames behind a Gateway
 * with an address and a CdnPolicy targeting it become a PullZoneConfig (origin the Gateway's
 * address), two DnsRecords in the policy's DnsZone and a ShieldPolicy, all Ready, and the
 * policy's status (conditions and Gateway API ancestors) says so. The origin follows the
 * Gateway's address, a new hostname gets its record, a hand edit is undone, a pass with nothing
 * to do makes no platform write, each refusal is reported, and deleting the policy deletes
 * (Delete) or leaves (Orphan, with the Ingress annotation) what it made. Route status is written
 * by the test as a load-balancer controller would.
 */
import test from 'ava';
import { CDN_POLICY_ANNOTATION } from '../../../src/controllers/cdnpolicy/types.js';
import {
  apply,
  deleteObject,
  getObject,
  listObjects,
  patchObject,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';
import {
  PZC,
  resetCalls,
  settle,
  SHP,
  simWrites,
  waitCondition,
  waitGone,
} from '../tenancy/setup.js';
import { installGatewayApiCrds, setStatus } from './gateway-api.js';

const CDNP = 'cdnpolicies.routes.cdn.operator.io';
const DNSR = 'dnsrecords.dns.cdn.operator.io';
const GW = 'gateways.gateway.networking.k8s.io';
const DOMAIN = 'routes-e2e.example';
const LONG = 180_000;
let env: OperatorEnv;

const obj = (
  apiVersion: string,
  kind: string,
  name: string,
  spec: unknown,
  meta: object = {},
): string =>
  JSON.stringify({ apiVersion, kind, metadata: { name, namespace: env.ns, ...meta }, spec });

const policy = (name: string, spec: Record<string, unknown>): string =>
  obj('routes.cdn.operator.io/v1beta1', 'CdnPolicy', name, {
    dnsZoneRefs: [{ name: 'zone' }],
    ...spec,
  });

const httpRouteRef = (name: string, namespace?: string): Record<string, unknown> => ({
  group: 'gateway.networking.k8s.io',
  kind: 'HTTPRoute',
  name,
  ...(namespace ? { namespace } : {}),
});

async function route(hostnames: string[]): Promise<void> {
  await apply(
    obj('gateway.networking.k8s.io/v1', 'HTTPRoute', 'web', {
      parentRefs: [{ name: 'gw' }],
      hostnames,
    }),
  );
}

function conditionIs(
  o: KubeJson | undefined,
  type: string,
  status: string,
  reason?: string,
): boolean {
  const c = o?.status?.conditions?.find((x) => x.type === type);
  return c?.status === status && (reason === undefined || c.reason === reason);
}

function waitPolicy(
  name: string,
  type: string,
  status: string,
  reason?: string,
): Promise<KubeJson> {
  return waitFor(
    async () => {
      const p = await getObject(CDNP, env.ns, name);
      return conditionIs(p, type, status, reason) ? p : undefined;
    },
    LONG,
    `CdnPolicy ${name} ${type}=${status} ${reason ?? ''}`,
    500,
  );
}

function originOf(o: KubeJson | undefined): unknown {
  return (o?.spec?.settings as { originUrl?: string } | undefined)?.originUrl;
}

async function waitOrigin(name: string, origin: string): Promise<void> {
  await waitFor(
    async () => originOf(await getObject(PZC, env.ns, name)) === origin,
    LONG,
    `origin ${origin}`,
    500,
  );
}

async function records(policyName: string): Promise<string[]> {
  const all = await listObjects(DNSR, env.ns);
  return all
    .filter(
      (r) =>
        (r.metadata as { labels?: Record<string, string> }).labels?.[
          'cdn.operator.io/cdn-policy'
        ] === policyName,
    )
    .map((r) => r.metadata.name)
    .sort();
}

test.before(async () => {
  await installGatewayApiCrds();
  env = await startOperatorEnv('e2e-routes', 'e2e-routes-key', { args: ['--routes'] });
  await apply(obj('dns.cdn.operator.io/v1beta1', 'DnsZone', 'zone', { domain: DOMAIN }));
  await waitCondition(`dnszones.dns.cdn.operator.io`, env.ns, 'zone', 'Ready', 'True');
  await apply(
    obj('gateway.networking.k8s.io/v1', 'Gateway', 'gw', {
      gatewayClassName: 'lb',
      listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }],
    }),
  );
  await setStatus(GW, env.ns, 'gw', { addresses: [{ type: 'IPAddress', value: '192.0.2.10' }] });
});

test.after.always(async () => {
  await env?.stop();
});

const PZ = 'cdn-httproute-web';

test.serial(
  'an HTTPRoute behind a Gateway: pull zone, two records, a shield, all Ready',
  async (t) => {
    await route([`www.${DOMAIN}`, `shop.${DOMAIN}`]);
    await apply(
      policy('cdn', {
        targetRefs: [httpRouteRef('web')],
        shieldPolicy: { waf: { enabled: true } },
      }),
    );
    const p = await waitPolicy('cdn', 'Ready', 'True');
    t.true(conditionIs(p, 'Accepted', 'True'));
    const pz = await waitCondition(PZC, env.ns, PZ, 'Ready', 'True');
    t.is(originOf(pz), 'http://192.0.2.10');
    t.deepEqual(
      (pz.spec?.hostnames as Array<{ hostname: string; certificate: unknown }>).map((h) => [
        h.hostname,
        h.certificate,
      ]),
      [
        [`www.${DOMAIN}`, { type: 'Free' }],
        [`shop.${DOMAIN}`, { type: 'Free' }],
      ],
    );
    t.deepEqual(await records('cdn'), [`${PZ}-shop.${DOMAIN}`, `${PZ}-www.${DOMAIN}`]);
    for (const r of await records('cdn')) await waitCondition(DNSR, env.ns, r, 'Ready', 'True');
    await waitCondition(SHP, env.ns, PZ, 'Ready', 'True');
    const ancestors = p.status?.ancestors as Array<{
      ancestorRef: { kind: string; name: string };
      controllerName: string;
      conditions: Array<{ type: string; status: string }>;
    }>;
    t.like(ancestors[0], {
      ancestorRef: { kind: 'HTTPRoute', name: 'web' },
      controllerName: 'cdn.operator.io/routes',
    });
    t.like(ancestors[0]?.conditions[0], { type: 'Accepted', status: 'True' });
    t.is((p.status?.generated as unknown[]).length, 4);
  },
);

test.serial('nothing changed: no platform write', async (t) => {
  await resetCalls(env.sim);
  await settle(8000);
  t.deepEqual(await simWrites(env.sim), []);
});

test.serial("the Gateway's address changes: the origin follows", async (t) => {
  await setStatus(GW, env.ns, 'gw', { addresses: [{ type: 'IPAddress', value: '192.0.2.11' }] });
  await waitOrigin(PZ, 'http://192.0.2.11');
  t.pass();
});

test.serial('a hand edit of the generated pull zone is undone', async (t) => {
  await patchObject(PZC, env.ns, PZ, {
    spec: { settings: { originUrl: 'http://edited.example' } },
  });
  await waitOrigin(PZ, 'http://192.0.2.11');
  t.pass();
});

test.serial('a hostname added to the route: its record and certificate follow', async (t) => {
  await route([`www.${DOMAIN}`, `shop.${DOMAIN}`, `new.${DOMAIN}`]);
  await waitFor(async () => (await records('cdn')).length === 3, LONG, 'three records', 500);
  const pz = await getObject(PZC, env.ns, PZ);
  t.true(
    (pz?.spec?.hostnames as Array<{ hostname: string }>).some(
      (h) => h.hostname === `new.${DOMAIN}`,
    ),
  );
  await waitCondition(DNSR, env.ns, `${PZ}-new.${DOMAIN}`, 'Ready', 'True');
  await waitPolicy('cdn', 'Ready', 'True');
});

const REFUSALS: Array<{
  title: string;
  name: string;
  spec: Record<string, unknown>;
  reason: string;
}> = [
  {
    title: 'a second policy on the same route',
    name: 'late',
    spec: { targetRefs: [httpRouteRef('web')] },
    reason: 'Conflicted',
  },
  {
    title: 'a route in another namespace',
    name: 'elsewhere',
    spec: { targetRefs: [httpRouteRef('web', 'kube-system')] },
    reason: 'TargetNotPermitted',
  },
  {
    title: 'a zone the namespace may not use',
    name: 'badzone',
    spec: { dnsZoneRefs: [{ name: 'not-here' }], targetRefs: [] },
    reason: 'ZoneNotAllowed',
  },
];

for (const r of REFUSALS) {
  test.serial(`refused: ${r.title}`, async (t) => {
    await apply(policy(r.name, r.spec));
    const p = await waitPolicy(r.name, 'Accepted', 'False', r.reason);
    t.deepEqual(p.status?.generated, []);
    await deleteObject(CDNP, env.ns, r.name);
    await waitGone(CDNP, env.ns, r.name);
  });
}

test.serial(
  'refused: a hostname outside the policy zones is reported, not published',
  async (t) => {
    await route([`www.${DOMAIN}`, `shop.${DOMAIN}`, `new.${DOMAIN}`, 'www.not-ours.test']);
    await waitPolicy('cdn', 'Accepted', 'False', 'HostnameNotInZones');
    t.is((await records('cdn')).length, 3);
    const pz = await getObject(PZC, env.ns, PZ);
    t.false(
      (pz?.spec?.hostnames as Array<{ hostname: string }>).some(
        (h) => h.hostname === 'www.not-ours.test',
      ),
    );
  },
);

test.serial('the policy deleted (Delete): everything made for the route is gone', async (t) => {
  await deleteObject(CDNP, env.ns, 'cdn');
  t.true(await waitGone(CDNP, env.ns, 'cdn'));
  t.true(await waitGone(PZC, env.ns, PZ));
  t.true(await waitGone(SHP, env.ns, PZ));
  t.deepEqual(await records('cdn'), []);
});

test.serial(
  'an Ingress with the annotation (Orphan): made, then left when the policy goes',
  async (t) => {
    await apply(policy('ing', { deletionPolicy: 'Orphan' }));
    await apply(ingress([`legacy.${DOMAIN}`]));
    await setStatus('ingresses.networking.k8s.io', env.ns, 'legacy', {
      loadBalancer: { ingress: [{ ip: '198.51.100.7' }] },
    });
    const name = 'ing-ingress-legacy';
    await waitPolicy('ing', 'Ready', 'True');
    t.is(originOf(await getObject(PZC, env.ns, name)), 'http://198.51.100.7');
    t.deepEqual(await records('ing'), [`${name}-legacy.${DOMAIN}`]);
    // The load balancer's address changes: the origin follows.
    await setStatus('ingresses.networking.k8s.io', env.ns, 'legacy', {
      loadBalancer: { ingress: [{ ip: '198.51.100.8' }] },
    });
    await waitOrigin(name, 'http://198.51.100.8');
    // A host added to the Ingress: its record and hostname follow.
    await apply(ingress([`legacy.${DOMAIN}`, `more.${DOMAIN}`]));
    await waitFor(async () => (await records('ing')).length === 2, LONG, 'two records', 500);
    const grown = await getObject(PZC, env.ns, name);
    t.true(
      (grown?.spec?.hostnames as Array<{ hostname: string }>).some(
        (h) => h.hostname === `more.${DOMAIN}`,
      ),
    );
    await waitPolicy('ing', 'Ready', 'True');
    await deleteObject(CDNP, env.ns, 'ing');
    t.true(await waitGone(CDNP, env.ns, 'ing'));
    const left = await getObject(PZC, env.ns, name);
    t.truthy(left, 'the pull zone is left');
    t.is((left?.metadata as { ownerReferences?: unknown }).ownerReferences, undefined);
    t.truthy(await getObject(DNSR, env.ns, `${name}-legacy.${DOMAIN}`), 'the record is left');
  },
);

/** The Ingress `legacy`, naming the policy `ing` by annotation, with one rule per host. */
function ingress(hosts: string[]): string {
  const paths = [
    { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
  ];
  return JSON.stringify({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      name: 'legacy',
      namespace: env.ns,
      annotations: { [CDN_POLICY_ANNOTATION]: 'ing' },
    },
    spec: { rules: hosts.map((host) => ({ host, http: { paths } })) },
  });
}
