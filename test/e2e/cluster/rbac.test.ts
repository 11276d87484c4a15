/**
 * The local control plane is a real kube-apiserver: CRDs apply with kubectl, objects round-trip,
 * and RBAC is enforced for service-account tokens (a verb outside the Role is denied with 403).
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const kubeconfig = process.env.KUBECONFIG ?? '';
const ns = `cluster-rbac-${process.pid}`;

async function kubectl(
  args: string[],
  input?: string,
  config = kubeconfig,
): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', config, ...args], (err, stdout, stderr) => {
      resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.harness.cdn.operator.io
spec:
  group: harness.cdn.operator.io
  scope: Namespaced
  names: { plural: gadgets, singular: gadget, kind: Gadget }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: integer, minimum: 1, maximum: 10 }
`;

test.before(async () => {
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  const applied = await kubectl(['apply', '-f', '-'], crd);
  if (applied.code !== 0) throw new Error(`cannot apply CRD: ${applied.stderr}`);
  await kubectl([
    'wait',
    '--for=condition=Established',
    'crd/gadgets.harness.cdn.operator.io',
    '--timeout=30s',
  ]);
  await kubectl(['create', 'namespace', ns]);
});

test.after.always(async () => {
  await kubectl(['delete', 'namespace', ns, '--wait=false']);
});

test('a CRD applied with kubectl serves objects that round-trip and validates them', async (t) => {
  const created = await kubectl(
    ['apply', '-n', ns, '-f', '-'],
    'apiVersion: harness.cdn.operator.io/v1\nkind: Gadget\nmetadata: {name: g1}\nspec: {size: 3}\n',
  );
  t.is(created.code, 0, created.stderr);
  const got = await kubectl(['get', '-n', ns, 'gadget', 'g1', '-o', 'jsonpath={.spec.size}']);
  t.is(got.stdout, '3');
  // Schema validation is the apiserver's, not ours: an out-of-range value is rejected at apply time.
  const invalid = await kubectl(
    ['apply', '-n', ns, '-f', '-'],
    'apiVersion: harness.cdn.operator.io/v1\nkind: Gadget\nmetadata: {name: g2}\nspec: {size: 11}\n',
  );
  t.not(invalid.code, 0);
  t.regex(invalid.stderr, /spec\.size.*10/);
});

test('a service-account token bound to a narrow Role gets 403 outside the Role and succeeds inside it', async (t) => {
  const rbac = `apiVersion: v1
kind: ServiceAccount
metadata: {name: reader, namespace: ${ns}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: gadget-reader, namespace: ${ns}}
rules:
  - apiGroups: [harness.cdn.operator.io]
    resources: [gadgets]
    verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reader, namespace: ${ns}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: gadget-reader}
subjects: [{kind: ServiceAccount, name: reader, namespace: ${ns}}]
`;
  t.is((await kubectl(['apply', '-f', '-'], rbac)).code, 0);
  await kubectl(
    ['apply', '-n', ns, '-f', '-'],
    'apiVersion: harness.cdn.operator.io/v1\nkind: Gadget\nmetadata: {name: g3}\nspec: {size: 2}\n',
  );
  const token = (
    await kubectl(['create', 'token', 'reader', '-n', ns, '--duration=10m'])
  ).stdout.trim();
  t.true(
    token.length > 100,
    'kubectl create token works (service-account signing keys are configured)',
  );

  const server = (
    await kubectl(['config', 'view', '--minify', '-o', 'jsonpath={.clusters[0].cluster.server}'])
  ).stdout;
  const ca = (
    await kubectl([
      'config',
      'view',
      '--raw',
      '--minify',
      '-o',
      'jsonpath={.clusters[0].cluster.certificate-authority-data}',
    ])
  ).stdout;
  const dir = await mkdtemp(join(tmpdir(), 'sa-kubeconfig-'));
  const saConfig = join(dir, 'kubeconfig');
  await writeFile(
    saConfig,
    `apiVersion: v1
kind: Config
clusters: [{name: local, cluster: {server: "${server}", certificate-authority-data: ${ca}}}]
users: [{name: reader, user: {token: ${token}}}]
contexts: [{name: local, context: {cluster: local, user: reader, namespace: ${ns}}}]
current-context: local
`,
  );
  try {
    const allowed = await kubectl(['get', 'gadget', 'g3', '-o', 'name'], undefined, saConfig);
    t.is(allowed.code, 0, allowed.stderr);
    t.is(allowed.stdout.trim(), 'gadget.harness.cdn.operator.io/g3');
    const denied = await kubectl(['delete', 'gadget', 'g3'], undefined, saConfig);
    t.not(denied.code, 0);
    t.regex(denied.stderr, /Forbidden|forbidden/);
    // The raw status code, to be sure it is a 403 and not some other failure.
    const raw = await kubectl(
      ['delete', '--raw', `/apis/harness.cdn.operator.io/v1/namespaces/${ns}/gadgets/g3`],
      undefined,
      saConfig,
    );
    t.regex(raw.stderr, /403|Forbidden/);
    const stillThere = await kubectl(['get', '-n', ns, 'gadget', 'g3', '-o', 'name']);
    t.is(stillThere.code, 0, 'the denied delete really did not happen');
    const canI = await kubectl(
      ['auth', 'can-i', 'create', 'gadgets.harness.cdn.operator.io'],
      undefined,
      saConfig,
    );
    t.is(canI.stdout.trim(), 'no');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
