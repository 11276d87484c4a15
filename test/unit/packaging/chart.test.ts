/**
 * The Helm chart rendered offline with the cached helm binary: lint is clean, the defaults
 * give a hardened 2-replica Deployment with least-privilege RBAC, optional objects appear only
 * when enabled, and values.schema.json (plus template guards) rejects bad values.
 */
import test from 'ava';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CHART,
  ROOT,
  helmTemplate,
  objectsOf,
  onlyOf,
  parseObjects,
  renderChart,
  resolveHelm,
  run,
  type KubeObject,
} from './tools.js';
import {
  expectedAccountRules,
  expectedAccountSecretRules,
  expectedLeaseRules,
  expectedSecretRules,
  expectedWorkloadRules,
  KIND_PLURALS,
  READ_ONLY_PLURALS,
} from './rbac-expected.js';

interface Container {
  name: string;
  args: string[];
  securityContext: Record<string, unknown>;
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  ports: { name: string; containerPort: number }[];
}
interface PodSpec {
  serviceAccountName: string;
  securityContext: Record<string, unknown>;
  containers: Container[];
}
interface DeploymentLike {
  spec: { replicas: number; template: { spec: PodSpec } };
}

function deploymentOf(objects: KubeObject[]): { spec: DeploymentLike['spec']; c: Container } {
  const d = onlyOf(objects, 'Deployment') as unknown as DeploymentLike;
  return { spec: d.spec, c: d.spec.template.spec.containers[0]! };
}

test('helm lint --strict passes on the chart', async (t) => {
  const helm = await resolveHelm();
  const lint = await run(helm, ['lint', '--strict', CHART]);
  t.is(lint.code, 0, lint.stdout + lint.stderr);
  t.regex(lint.stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
  t.notRegex(lint.stdout, /\[(WARNING|ERROR)\]/);
});

test('helm template without any flag renders the chart (as in a CI pipeline)', async (t) => {
  // A helm built without the Kubernetes version ldflags assumes v1.20 and refuses the chart's
  // kubeVersion; released helm binaries, and ours (hack/build-binaries.sh), carry them.
  const helm = await resolveHelm();
  const r = await run(helm, ['template', 'deploy/helm/cdn-operator'], { cwd: ROOT });
  t.is(r.code, 0, r.stderr);
  t.true(objectsOf(parseObjects(r.stdout), 'Deployment').length === 1, r.stdout.slice(0, 500));
});

test('default values render exactly the documented objects', async (t) => {
  const objects = await renderChart();
  const kinds = objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
  t.deepEqual(kinds, [
    'ClusterRole/cdn-operator',
    'ClusterRole/cdn-operator-accounts',
    'ClusterRoleBinding/cdn-operator',
    'ClusterRoleBinding/cdn-operator-accounts',
    'Deployment/cdn-operator',
    'Pod/cdn-operator-test-metrics',
    'PodDisruptionBudget/cdn-operator',
    'Role/cdn-operator-account-secrets',
    'Role/cdn-operator-leader-election',
    'RoleBinding/cdn-operator-account-secrets',
    'RoleBinding/cdn-operator-leader-election',
    'Service/cdn-operator-metrics',
    'ServiceAccount/cdn-operator',
  ]);
  for (const o of objects) t.is(o.metadata.namespace ?? 'cdn-operator', 'cdn-operator');
});

test('the Deployment is hardened: non-root, read-only root FS, no escalation, seccomp, limits, probes', async (t) => {
  const { spec, c } = deploymentOf(await renderChart());
  const pod = spec.template.spec;
  t.is(spec.replicas, 2);
  t.like(pod.securityContext, { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
  t.like(c.securityContext, {
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    privileged: false,
    capabilities: { drop: ['ALL'] },
  });
  t.truthy(c.resources.requests?.cpu && c.resources.requests.memory);
  t.truthy(c.resources.limits?.cpu && c.resources.limits.memory);
  t.deepEqual(c.livenessProbe.httpGet, { path: '/healthz', port: 'http-health' });
  t.deepEqual(c.readinessProbe.httpGet, { path: '/readyz', port: 'http-health' });
  t.deepEqual(
    c.ports.map((p) => [p.name, p.containerPort]),
    [
      ['http-metrics', 8080],
      ['http-health', 8081],
    ],
  );
  t.true(c.args.includes('--leader-elect'), 'two replicas need leader election');
  t.true(c.args.includes('--metrics-bind-address=:8080'));
  t.true(c.args.includes('--health-probe-bind-address=:8081'));
  t.is(pod.serviceAccountName, 'cdn-operator');
});

function rulesOf(o: KubeObject): unknown {
  return (o as unknown as { rules: unknown }).rules;
}

test('RBAC defaults are exactly the least-privilege list (no Secret read outside the release namespace, no Secret writes)', async (t) => {
  const objects = await renderChart();
  t.deepEqual(
    rulesOf(onlyOf(objects, 'ClusterRole', 'cdn-operator')),
    expectedWorkloadRules(false),
  );
  t.deepEqual(
    rulesOf(onlyOf(objects, 'ClusterRole', 'cdn-operator-accounts')),
    expectedAccountRules(),
  );
  t.is(objectsOf(objects, 'ClusterRole').length, 2);
  const secrets = onlyOf(objects, 'Role', 'cdn-operator-account-secrets');
  t.is(secrets.metadata.namespace, 'cdn-operator');
  t.deepEqual(rulesOf(secrets), expectedAccountSecretRules());
  t.deepEqual(
    rulesOf(onlyOf(objects, 'Role', 'cdn-operator-leader-election')),
    expectedLeaseRules('cdn-operator.cdn.operator.io'),
  );
  t.is(objectsOf(objects, 'Role').length, 2);
  for (const name of ['cdn-operator', 'cdn-operator-accounts']) {
    const binding = onlyOf(objects, 'ClusterRoleBinding', name) as unknown as {
      subjects: { kind: string; name: string; namespace: string }[];
    };
    t.deepEqual(binding.subjects, [
      { kind: 'ServiceAccount', name: 'cdn-operator', namespace: 'cdn-operator' },
    ]);
  }
  // No default account unless its Secret is named.
  t.is(objectsOf(objects, 'CdnAccount').length, 0);
  t.false(deploymentOf(objects).c.args.some((a) => a.startsWith('--default-account')));
  t.true(deploymentOf(objects).c.args.includes('--operator-namespace=cdn-operator'));
});

test('RBAC covers every CRD shipped in crds/ (a new kind cannot be forgotten)', async (t) => {
  const files = (await readdir(join(ROOT, 'crds'))).filter((f) => f.endsWith('.yaml'));
  t.true(files.length > 0);
  const known = [...KIND_PLURALS, ...READ_ONLY_PLURALS].flatMap(([group, plurals]) =>
    plurals.map((p) => `${group}_${p}.yaml`),
  );
  for (const f of files) t.true(known.includes(f), f);
});

test('outputs.enabled adds Secret writes only where Secrets are granted', async (t) => {
  const objects = await renderChart(['outputs.enabled=true']);
  t.deepEqual(rulesOf(onlyOf(objects, 'ClusterRole', 'cdn-operator')), expectedWorkloadRules(true));
  const wide = await renderChart(['outputs.enabled=true', 'secretAccess.clusterWide=true']);
  t.deepEqual(
    rulesOf(onlyOf(wide, 'ClusterRole', 'cdn-operator')),
    expectedWorkloadRules(true, true),
  );
});

test('secretAccess.namespaces: one Secret-reading Role per tenant namespace, nothing cluster-wide', async (t) => {
  const objects = await renderChart([
    'secretAccess.namespaces={team-a,team-b}',
    'outputs.enabled=true',
  ]);
  const roles = objectsOf(objects, 'Role', 'cdn-operator-secrets');
  t.deepEqual(roles.map((r) => r.metadata.namespace).sort(), ['team-a', 'team-b']);
  for (const r of roles) t.deepEqual(rulesOf(r), expectedSecretRules(true));
  const bindings = objectsOf(objects, 'RoleBinding', 'cdn-operator-secrets');
  t.deepEqual(bindings.map((r) => r.metadata.namespace).sort(), ['team-a', 'team-b']);
  t.deepEqual(rulesOf(onlyOf(objects, 'ClusterRole', 'cdn-operator')), expectedWorkloadRules(true));
});

test('watchNamespaces gives one Role per namespace instead of a ClusterRole, and --namespace', async (t) => {
  const objects = await renderChart(['watchNamespaces={team-a,team-b}']);
  t.deepEqual(
    objectsOf(objects, 'ClusterRole').map((o) => o.metadata.name),
    ['cdn-operator-accounts'],
  );
  const roles = objectsOf(objects, 'Role', 'cdn-operator');
  t.deepEqual(roles.map((r) => r.metadata.namespace).sort(), ['team-a', 'team-b']);
  for (const r of roles) t.deepEqual(rulesOf(r), expectedWorkloadRules(false, true));
  const { c } = deploymentOf(objects);
  t.true(c.args.includes('--namespace=team-a,team-b'));
});

test('maxConcurrentReconciles: no flag by default (4 × workers), the flag when set', async (t) => {
  const plain = deploymentOf(await renderChart([])).c;
  t.true(plain.args.includes('--workers=8'));
  t.false(plain.args.some((a) => a.startsWith('--max-concurrent-reconciles')));
  const set = deploymentOf(await renderChart(['maxConcurrentReconciles=24'])).c;
  t.true(set.args.includes('--max-concurrent-reconciles=24'));
});

test('defaultAccount: a CdnAccount (closed unless a selector is given) and --default-account', async (t) => {
  const closed = await renderChart(['defaultAccount.secretName=bunny']);
  const account = onlyOf(closed, 'CdnAccount', 'default') as unknown as {
    spec: Record<string, unknown>;
  };
  t.deepEqual(account.spec, {
    secretRef: { name: 'bunny', key: 'apiKey', namespace: 'cdn-operator' },
    namespaceSelector: {},
  });
  t.true(deploymentOf(closed).c.args.includes('--default-account=default'));
  const open = await renderChart([
    'defaultAccount.secretName=bunny',
    'defaultAccount.name=shared',
    'defaultAccount.namespaceSelector.matchLabels.cdn\\.operator\\.io/default-account=open',
  ]);
  const opened = onlyOf(open, 'CdnAccount', 'shared') as unknown as {
    spec: { namespaceSelector: unknown };
  };
  t.deepEqual(opened.spec.namespaceSelector, {
    matchLabels: { 'cdn.operator.io/default-account': 'open' },
  });
  t.true(deploymentOf(open).c.args.includes('--default-account=shared'));
});

test('sharding values: label selector, own Lease (flag and Role) and own default account per release', async (t) => {
  const objects = await renderChart([
    'labelSelector=example.com/shard=b',
    'leaderElection.leaseName=cdn-operator-shard-b.cdn.operator.io',
    'defaultAccount.secretName=bunny',
    'defaultAccount.name=shard-b',
  ]);
  const { c } = deploymentOf(objects);
  t.true(c.args.includes('--label-selector=example.com/shard=b'), 'the selector reaches the flag');
  t.true(
    c.args.includes('--leader-election-id=cdn-operator-shard-b.cdn.operator.io'),
    'the Lease name reaches the flag',
  );
  t.deepEqual(
    rulesOf(onlyOf(objects, 'Role', 'cdn-operator-leader-election')),
    expectedLeaseRules('cdn-operator-shard-b.cdn.operator.io'),
    'the lease Role grants exactly the renamed Lease',
  );
  t.is(objectsOf(objects, 'CdnAccount', 'default').length, 0, 'no clash on CdnAccount default');
  t.true(c.args.includes('--default-account=shard-b'));
});

test('the removed defaultCredentials values are rejected by the values schema', async (t) => {
  await t.throwsAsync(renderChart(['defaultCredentials.secretName=bunny']), {
    message: /defaultCredentials/,
  });
});

test('optional objects: ServiceMonitor and NetworkPolicy only when enabled; PDB can be disabled', async (t) => {
  const objects = await renderChart([
    'metrics.serviceMonitor.enabled=true',
    'networkPolicy.enabled=true',
    'pdb.enabled=false',
  ]);
  const sm = onlyOf(objects, 'ServiceMonitor') as unknown as {
    spec: { endpoints: { port: string }[] };
  };
  t.is(sm.spec.endpoints[0]!.port, 'http-metrics');
  const np = onlyOf(objects, 'NetworkPolicy') as unknown as { spec: { policyTypes: string[] } };
  t.deepEqual(np.spec.policyTypes, ['Ingress', 'Egress']);
  t.is(objectsOf(objects, 'PodDisruptionBudget').length, 0);
});

test('metrics.enabled=false removes the Service, the helm test and the metrics port', async (t) => {
  const objects = await renderChart(['metrics.enabled=false']);
  t.is(objectsOf(objects, 'Service').length, 0);
  t.is(objectsOf(objects, 'Pod').length, 0);
  const { c } = deploymentOf(objects);
  t.true(c.args.includes('--metrics-bind-address=0'));
  t.deepEqual(
    c.ports.map((p) => p.name),
    ['http-health'],
  );
});

test('the helm test pod scrapes the metrics Service and is not selected by it', async (t) => {
  const objects = await renderChart();
  const pod = onlyOf(objects, 'Pod');
  t.is(pod.metadata.annotations?.['helm.sh/hook'], 'test');
  const svc = onlyOf(objects, 'Service') as unknown as {
    spec: { selector: Record<string, string> };
  };
  const labels = pod.metadata.labels ?? {};
  const selected = Object.entries(svc.spec.selector).every(([k, v]) => labels[k] === v);
  t.false(selected, 'the Service must not route to the test pod');
  t.regex(JSON.stringify(pod), /cdn-operator-metrics\.cdn-operator\.svc:8080\/metrics/);
});

const rejected: { values: string[]; error: RegExp; reason: string }[] = [
  { values: ['replicas=0'], error: /replicas/, reason: 'at least one replica' },
  { values: ['logLevel=loud'], error: /logLevel/, reason: 'log level outside the enum' },
  { values: ['apiUrl=ftp://example.com'], error: /apiUrl/, reason: 'API URL must be http(s)' },
  { values: ['pollInterval=ten minutes'], error: /pollInterval/, reason: 'not a duration' },
  {
    values: ['unknownKey=1'],
    error: /unknownKey|additional propert/i,
    reason: 'typo in a top-level key',
  },
  {
    values: ['watchNamespaces={Team_A}'],
    error: /watchNamespaces/,
    reason: 'not a namespace name',
  },
  {
    values: ['securityContext.allowPrivilegeEscalation=true'],
    error: /allowPrivilegeEscalation/,
    reason: 'hardening is not optional',
  },
  {
    values: ['podSecurityContext.runAsNonRoot=false'],
    error: /runAsNonRoot/,
    reason: 'must run as non-root',
  },
  {
    values: ['securityContext.readOnlyRootFilesystem=false'],
    error: /readOnlyRootFilesystem/,
    reason: 'the root filesystem stays read-only',
  },
  {
    values: ['securityContext.capabilities.drop=null'],
    error: /drop/,
    reason: 'capabilities cannot be kept by removing the drop list',
  },
  {
    values: ['securityContext.capabilities.drop={NET_RAW}'],
    error: /drop|ALL/,
    reason: 'ALL capabilities are dropped',
  },
  {
    values: ['securityContext.capabilities.add={NET_ADMIN}'],
    error: /add/,
    reason: 'no capability is added back',
  },
  {
    values: ['securityContext=null'],
    error: /securityContext|allowPrivilegeEscalation/,
    reason: 'the whole container context cannot be dropped',
  },
  {
    values: ['podSecurityContext.seccompProfile.type=Unconfined'],
    error: /seccompProfile|type/,
    reason: 'seccomp stays on',
  },
  { values: ['metrics.port=70000'], error: /port/, reason: 'port out of range' },
  { values: ['image.digest=latest'], error: /digest/, reason: 'digest must be sha256:<hex>' },
  { values: ['extraArgs={leader-elect}'], error: /extraArgs/, reason: 'extra args are flags' },
  {
    values: ['leaderElection.enabled=false'],
    error: /leaderElection\.enabled/,
    reason: '2 replicas without leader election would double-reconcile',
  },
  {
    values: ['pdb.minAvailable=1'],
    error: /exactly one of pdb\.minAvailable/,
    reason: 'PDB with both bounds',
  },
];

for (const c of rejected) {
  test(`values rejected: ${c.values.join(' ')} (${c.reason})`, async (t) => {
    const result = await helmTemplate(c.values);
    t.not(result.code, 0, `helm template accepted ${c.values.join(' ')}`);
    t.regex(result.stderr, c.error);
  });
}

test('values accepted: a single replica without leader election, minAvailable PDB, digest', async (t) => {
  const objects = await renderChart([
    'replicas=1',
    'leaderElection.enabled=false',
    'pdb.maxUnavailable=null',
    'pdb.minAvailable=1',
    `image.digest=sha256:${'a'.repeat(64)}`,
  ]);
  const { spec, c } = deploymentOf(objects);
  t.is(spec.replicas, 1);
  t.false(c.args.includes('--leader-elect'));
  t.is(
    objectsOf(objects, 'Role', 'cdn-operator-leader-election').length,
    0,
    'no lease Role without leader election',
  );
  t.like(onlyOf(objects, 'PodDisruptionBudget'), { spec: { minAvailable: 1 } });
  t.regex(JSON.stringify(objects), /cdn-operator@sha256:a{64}/);
});
