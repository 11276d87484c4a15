/**
 * routes.enabled (docs/routes.md, issue 51): the chart passes --routes and adds a ClusterRole
 * that reads the routes (never writes them) and may create and delete the kinds a CdnPolicy
 * makes; off by default, where the chart renders neither. The kustomize component
 * deploy/kustomize/components/routes holds the same role and flag.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  KUSTOMIZE,
  objectsOf,
  parseObjects,
  renderChart,
  ROOT,
  run,
  type KubeObject,
} from './tools.js';

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };

const EXPECTED: Rule[] = [
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses'], verbs: ['get', 'list', 'watch'] },
  {
    apiGroups: ['gateway.networking.k8s.io'],
    resources: ['gateways', 'httproutes'],
    verbs: ['get', 'list', 'watch'],
  },
  {
    apiGroups: ['pullzones.cdn.operator.io'],
    resources: ['pullzoneconfigs'],
    verbs: ['create', 'delete'],
  },
  { apiGroups: ['dns.cdn.operator.io'], resources: ['dnsrecords'], verbs: ['create', 'delete'] },
  {
    apiGroups: ['shield.cdn.operator.io'],
    resources: ['shieldpolicies'],
    verbs: ['create', 'delete'],
  },
];

function argsOf(objects: KubeObject[]): string[] {
  const d = objectsOf(objects, 'Deployment')[0] as unknown as {
    spec: { template: { spec: { containers: Array<{ args: string[] }> } } };
  };
  return d.spec.template.spec.containers[0]!.args;
}

function routeRole(objects: KubeObject[]): KubeObject | undefined {
  return objectsOf(objects, 'ClusterRole').find((o) => o.metadata.name === 'cdn-operator-routes');
}

test('off by default: no --routes, no routes role', async (t) => {
  const objects = await renderChart([], { extra: ['--skip-tests'] });
  t.false(argsOf(objects).includes('--routes'));
  t.is(routeRole(objects), undefined);
});

test('routes.enabled: --routes and a role that only reads the routes', async (t) => {
  const objects = await renderChart(['routes.enabled=true'], { extra: ['--skip-tests'] });
  t.true(argsOf(objects).includes('--routes'));
  t.deepEqual((routeRole(objects) as unknown as { rules: Rule[] }).rules, EXPECTED);
  t.truthy(
    objectsOf(objects, 'ClusterRoleBinding').find((o) => o.metadata.name === 'cdn-operator-routes'),
  );
});

test('the kustomize component gives the same role and flag', async (t) => {
  const dir = mkdtempSync(join(ROOT, '.tmp-routes-kz-'));
  try {
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'resources:',
        `  - ${relative(dir, KUSTOMIZE)}`,
        'components:',
        `  - ${relative(dir, join(KUSTOMIZE, 'components/routes'))}`,
        '',
      ].join('\n'),
    );
    const r = await run('kubectl', ['kustomize', dir]);
    t.is(r.code, 0, r.stderr);
    const objects = parseObjects(r.stdout);
    t.true(argsOf(objects).includes('--routes'));
    t.deepEqual((routeRole(objects) as unknown as { rules: Rule[] }).rules, EXPECTED);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
