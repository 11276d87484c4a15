/**
 * Copies kept in step with their single source by `make sync-chart-crds` (deploy/sync.sh):
 * the chart's and the kustomize base's CRDs equal crds/, and the Argo CD health check shipped
 * in the chart and in the argocd-cm snippet equals deploy/argocd/health.lua.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { apiGroupOf } from '../../../src/controllers/kind-names.js';
import { KINDS } from '../../../src/controllers/kinds.js';
import { CHART, HEALTH_LUA, KUSTOMIZE, ROOT } from './tools.js';

const FIX = 'run `make sync-chart-crds`';

async function yamlFiles(dir: string): Promise<string[]> {
  return (await readdir(dir))
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .sort();
}

const copies = [
  { name: 'Helm chart', dir: join(CHART, 'crds') },
  { name: 'kustomize base', dir: join(KUSTOMIZE, 'crds') },
];

for (const copy of copies) {
  test(`the ${copy.name} CRDs are byte-identical to crds/`, async (t) => {
    const source = await yamlFiles(join(ROOT, 'crds'));
    t.true(source.length > 0, 'crds/ has CRDs');
    t.deepEqual(await yamlFiles(copy.dir), source, `same file set; ${FIX}`);
    for (const f of source) {
      const [a, b] = await Promise.all([
        readFile(join(ROOT, 'crds', f), 'utf8'),
        readFile(join(copy.dir, f), 'utf8'),
      ]);
      t.true(a === b, `${copy.name} ${f} differs from crds/${f}; ${FIX}`);
    }
  });
}

test('the kustomize CRD kustomization lists every CRD copy', async (t) => {
  const k = parse(await readFile(join(KUSTOMIZE, 'crds/kustomization.yaml'), 'utf8')) as {
    resources: string[];
  };
  t.deepEqual([...k.resources].sort(), await yamlFiles(join(ROOT, 'crds')), FIX);
});

test('the chart ships the Argo CD health check and snippet unchanged', async (t) => {
  const lua = await readFile(HEALTH_LUA, 'utf8');
  t.is(await readFile(join(CHART, 'argocd/health.lua'), 'utf8'), lua, FIX);
  const snippet = await readFile(join(ROOT, 'deploy/argocd/argocd-cm.yaml'), 'utf8');
  t.is(await readFile(join(CHART, 'argocd/argocd-cm.yaml'), 'utf8'), snippet, FIX);
});

test('the argocd-cm snippet carries the health check for each kind, CdnAccount included', async (t) => {
  const lua = await readFile(HEALTH_LUA, 'utf8');
  const cm = parse(await readFile(join(ROOT, 'deploy/argocd/argocd-cm.yaml'), 'utf8')) as {
    data: Record<string, string>;
  };
  t.deepEqual(
    Object.keys(cm.data).sort(),
    KINDS.map((k) => `resource.customizations.health.${apiGroupOf(k)}_${k.kind}`).sort(),
  );
  for (const [key, script] of Object.entries(cm.data)) t.is(script, lua, `${key}; ${FIX}`);
});
