/**
 * `kubectl apply -k deploy/kustomize`, exactly as a user runs it, on a private control plane:
 * the base installs cluster-scoped objects with fixed names (ClusterRole cdn-operator, the
 * CRDs) that must not collide with the Helm release tested on the shared apiserver.
 */
import test from 'ava';
import { startControlPlane, type ControlPlane } from '../../cluster/control-plane.js';
import { KUSTOMIZE, run } from '../../unit/packaging/tools.js';

let cp: ControlPlane;

test.before(async () => {
  cp = await startControlPlane();
});

test.after.always(async () => {
  await cp?.stop();
});

function kubectl(args: string[]): ReturnType<typeof run> {
  return run('kubectl', ['--kubeconfig', cp.kubeconfigPath, ...args]);
}

test.serial('kubectl apply -k deploy/kustomize installs every object of the base', async (t) => {
  const applied = await kubectl(['apply', '-k', KUSTOMIZE]);
  t.is(applied.code, 0, applied.stderr);
  const names = applied.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/ (created|configured|unchanged)$/, ''))
    .sort();
  t.deepEqual(
    names.filter((n) => !n.startsWith('customresourcedefinition')),
    [
      'clusterrole.rbac.authorization.k8s.io/cdn-operator',
      'clusterrole.rbac.authorization.k8s.io/cdn-operator-accounts',
      'clusterrolebinding.rbac.authorization.k8s.io/cdn-operator',
      'clusterrolebinding.rbac.authorization.k8s.io/cdn-operator-accounts',
      'deployment.apps/cdn-operator',
      'namespace/cdn-operator',
      'poddisruptionbudget.policy/cdn-operator',
      'role.rbac.authorization.k8s.io/cdn-operator-account-secrets',
      'role.rbac.authorization.k8s.io/cdn-operator-leader-election',
      'rolebinding.rbac.authorization.k8s.io/cdn-operator-account-secrets',
      'rolebinding.rbac.authorization.k8s.io/cdn-operator-leader-election',
      'service/cdn-operator-metrics',
      'serviceaccount/cdn-operator',
    ],
  );
  const crds = await kubectl([
    'wait',
    '--for=condition=Established',
    'crd',
    '--all',
    '--timeout=60s',
  ]);
  t.is(crds.code, 0, crds.stderr);
  // The kinds are served: `kubectl get cdn` (the category) works on the fresh apiserver once
  // kubectl's discovery cache (written by the apply above, before the CRDs) is refreshed.
  const resources = await kubectl(['api-resources', '--categories=cdn', '-o', 'name']);
  t.is(resources.code, 0, resources.stderr);
  t.true(resources.stdout.includes('pullzoneconfigs.pullzones.cdn.operator.io'), resources.stdout);
  const get = await kubectl(['get', 'cdn', '-A']);
  t.is(get.code, 0, get.stderr);
  const deploy = await kubectl([
    'get',
    'deploy',
    'cdn-operator',
    '-n',
    'cdn-operator',
    '-o',
    'jsonpath={.spec.replicas} {.spec.template.spec.serviceAccountName} {.spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem}',
  ]);
  t.is(deploy.stdout, '2 cdn-operator true');
});

test.serial('the applied base matches the files: kubectl diff -k finds nothing', async (t) => {
  // (A second `apply` reports the PDB as "configured" whatever it holds: kubectl always sends
  // a PDB's selector, which has patch strategy replace. diff asks the server for the result.)
  const diff = await kubectl(['diff', '-k', KUSTOMIZE]);
  t.is(diff.code, 0, diff.stdout + diff.stderr);
});

test.serial(
  'switching to server-side apply (as Argo CD can) gives no field conflicts',
  async (t) => {
    const ssa = await kubectl(['apply', '--server-side', '-k', KUSTOMIZE]);
    t.is(ssa.code, 0, ssa.stderr);
  },
);
