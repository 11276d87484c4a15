/**
 * The chart with `dns01Solver.enabled=true` (docs/certificates.md): the operator gets the flag
 * and its settings (read back with the operator's own parser), the port and the serving
 * certificate's Secret; a Service and the APIService reach it; cert-manager issues the serving
 * certificate through a self-signed → CA → serving chain whose CA the APIService trusts; the
 * RBAC of an aggregated API server plus cert-manager's right to call the solver. Off by default.
 */
import test from 'ava';
import { parseConfig } from '../../../src/config.js';
import { helmTemplate, objectsOf, onlyOf, renderChart, type KubeObject } from './tools.js';

const ON = ['dns01Solver.enabled=true'];
const SOLVER = 'cdn-operator-dns01-solver';

interface Container {
  args: string[];
  ports: { name: string; containerPort: number }[];
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface Pod {
  containers: Container[];
  volumes: { name: string; secret?: { secretName: string } }[];
}

function podOf(objects: KubeObject[]): Pod {
  const d = onlyOf(objects, 'Deployment') as unknown as { spec: { template: { spec: Pod } } };
  return d.spec.template.spec;
}

function names(objects: KubeObject[]): string[] {
  return objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort();
}

test('enabled adds exactly the solver objects; the defaults have none', async (t) => {
  const [off, on] = await Promise.all([renderChart(), renderChart(ON)]);
  const added = names(on).filter((n) => !names(off).includes(n));
  t.deepEqual(added, [
    `APIService//v1alpha1.acme.cdn.operator.io`,
    `Certificate/cdn-operator/${SOLVER}-ca`,
    `Certificate/cdn-operator/${SOLVER}-tls`,
    `ClusterRole//${SOLVER}`,
    `ClusterRoleBinding//${SOLVER}`,
    `ClusterRoleBinding//${SOLVER}-auth-delegator`,
    `Issuer/cdn-operator/${SOLVER}-ca`,
    `Issuer/cdn-operator/${SOLVER}-selfsign`,
    `RoleBinding/kube-system/${SOLVER}-auth-reader`,
    `Service/cdn-operator/${SOLVER}`,
  ]);
  t.deepEqual(
    names(off).filter((n) => !names(on).includes(n)),
    [],
  );
  t.false(JSON.stringify(podOf(off)).includes('dns01'), 'no flag, port or volume when off');
});

test('the Deployment runs the solver as the operator parses its flags, with the Secret at its tls dir', async (t) => {
  const objects = await renderChart(ON);
  const pod = podOf(objects);
  const c = pod.containers[0]!;
  const parsed = parseConfig(c.args, {});
  if (parsed.command !== 'run') throw new Error('expected run');
  t.deepEqual(parsed.config.dns01Solver, {
    host: '0.0.0.0',
    port: 8443,
    tlsDir: '/var/run/cdn-operator/dns01-tls',
    group: 'acme.cdn.operator.io',
  });
  t.deepEqual(
    c.ports.find((p) => p.name === 'https-solver'),
    { name: 'https-solver', containerPort: 8443, protocol: 'TCP' } as never,
  );
  const mount = c.volumeMounts.find((m) => m.mountPath === parsed.config.dns01Solver?.tlsDir);
  t.truthy(mount?.readOnly, 'the tls dir is a read-only mount');
  const volume = pod.volumes.find((v) => v.name === mount?.name);
  const serving = onlyOf(objects, 'Certificate', `${SOLVER}-tls`);
  t.is(volume?.secret?.secretName, (serving.spec as { secretName: string }).secretName);
});

test('the Service and the APIService reach the solver port; the APIService trusts the serving CA', async (t) => {
  const objects = await renderChart(ON);
  const service = onlyOf(objects, 'Service', SOLVER);
  t.like(service.spec, {
    selector: {
      'app.kubernetes.io/name': 'cdn-operator',
      'app.kubernetes.io/instance': 'cdn-operator',
    },
    ports: [{ name: 'https-solver', port: 443, targetPort: 'https-solver' }],
  });
  const api = onlyOf(objects, 'APIService');
  t.is(api.metadata.name, 'v1alpha1.acme.cdn.operator.io');
  t.deepEqual(api.spec, {
    group: 'acme.cdn.operator.io',
    version: 'v1alpha1',
    groupPriorityMinimum: 1000,
    versionPriority: 15,
    service: { name: SOLVER, namespace: 'cdn-operator', port: 443 },
  });
  t.is(
    (api.metadata as { annotations?: Record<string, string> }).annotations?.[
      'cert-manager.io/inject-ca-from'
    ],
    `cdn-operator/${SOLVER}-tls`,
  );
});

test('the serving certificate: self-signed Issuer → CA Certificate → CA Issuer → serving Certificate for the Service', async (t) => {
  const objects = await renderChart(ON);
  const spec = (kind: string, name: string): Record<string, unknown> =>
    onlyOf(objects, kind, name).spec as Record<string, unknown>;
  t.deepEqual(spec('Issuer', `${SOLVER}-selfsign`), { selfSigned: {} });
  t.like(spec('Certificate', `${SOLVER}-ca`), {
    isCA: true,
    secretName: `${SOLVER}-ca`,
    issuerRef: { name: `${SOLVER}-selfsign` },
  });
  t.deepEqual(spec('Issuer', `${SOLVER}-ca`), { ca: { secretName: `${SOLVER}-ca` } });
  t.like(spec('Certificate', `${SOLVER}-tls`), {
    secretName: `${SOLVER}-tls`,
    issuerRef: { name: `${SOLVER}-ca` },
  });
  t.true(
    (spec('Certificate', `${SOLVER}-tls`).dnsNames as string[]).includes(
      `${SOLVER}.cdn-operator.svc`,
    ),
    'the name the aggregator dials',
  );
});

const OPERATOR_SA = { kind: 'ServiceAccount', name: 'cdn-operator', namespace: 'cdn-operator' };

test('RBAC: the operator reads the front-proxy config and delegates authorization; cert-manager may create the solver resource', async (t) => {
  const objects = await renderChart(ON);
  const reader = onlyOf(objects, 'RoleBinding', `${SOLVER}-auth-reader`);
  t.like(reader, {
    metadata: { namespace: 'kube-system' },
    roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' },
    subjects: [OPERATOR_SA],
  });
  t.like(onlyOf(objects, 'ClusterRoleBinding', `${SOLVER}-auth-delegator`), {
    roleRef: { kind: 'ClusterRole', name: 'system:auth-delegator' },
    subjects: [OPERATOR_SA],
  });
  t.deepEqual(onlyOf(objects, 'ClusterRole', SOLVER).rules, [
    { apiGroups: ['acme.cdn.operator.io'], resources: ['cdn-operator'], verbs: ['create'] },
  ]);
  t.like(onlyOf(objects, 'ClusterRoleBinding', SOLVER), {
    roleRef: { kind: 'ClusterRole', name: SOLVER },
    subjects: [{ kind: 'ServiceAccount', name: 'cert-manager', namespace: 'cert-manager' }],
  });
});

test('values: group, port and cert-manager account are followed everywhere; rbac.create=false drops the RBAC', async (t) => {
  const objects = await renderChart([
    ...ON,
    'dns01Solver.groupName=acme.example.com',
    'dns01Solver.port=9443',
    'dns01Solver.certManager.namespace=security',
    'dns01Solver.certManager.serviceAccountName=cm',
  ]);
  const args = podOf(objects).containers[0]!.args;
  t.true(args.includes('--dns01-solver-group=acme.example.com'));
  t.true(args.includes('--dns01-solver-listen=:9443'));
  t.is(onlyOf(objects, 'APIService').metadata.name, 'v1alpha1.acme.example.com');
  t.like(onlyOf(objects, 'ClusterRole', SOLVER), {
    rules: [{ apiGroups: ['acme.example.com'] }],
  });
  t.like(onlyOf(objects, 'ClusterRoleBinding', SOLVER), {
    subjects: [{ name: 'cm', namespace: 'security' }],
  });
  const noRbac = await renderChart([...ON, 'rbac.create=false']);
  t.deepEqual(
    [...objectsOf(noRbac, 'RoleBinding'), ...objectsOf(noRbac, 'ClusterRoleBinding')],
    [],
  );
});

test('with networkPolicy.enabled the solver port admits the aggregator', async (t) => {
  const policy = onlyOf(await renderChart([...ON, 'networkPolicy.enabled=true']), 'NetworkPolicy');
  const ingress = (policy.spec as { ingress: { ports: { port: string }[] }[] }).ingress;
  t.true(ingress.some((r) => r.ports.some((p) => p.port === 'https-solver')));
  const off = onlyOf(await renderChart(['networkPolicy.enabled=true']), 'NetworkPolicy');
  t.false(JSON.stringify(off).includes('https-solver'));
});

const BAD: Array<[string, string]> = [
  ['dns01Solver.groupName=acme', 'a group without a dot'],
  ['dns01Solver.port=0', 'port 0 (the Service needs a fixed target)'],
  ['dns01Solver.certManager.namespace=', 'no cert-manager namespace'],
  ['dns01Solver.unknown=1', 'an unknown key'],
];

for (const [value, why] of BAD)
  test(`the values schema rejects: ${why}`, async (t) => {
    const r = await helmTemplate([...ON, value]);
    t.not(r.code, 0, r.stdout.slice(0, 300));
    t.regex(r.stderr, /dns01Solver/);
  });
