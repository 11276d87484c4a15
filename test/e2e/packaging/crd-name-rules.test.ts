/**
 * The PullZoneConfig CRD's name rules on a real apiserver, applied with kubectl as a user
 * would: every zone name the platform refuses is rejected at apply time (spec.name and its
 * metadata.name default), and the zone name cannot be added, changed or removed afterwards.
 */
import test from 'ava';
import { applyAllCrds } from '../support/crds.js';
import {
  createNamespace,
  deleteNamespace,
  kubectlRaw,
  type KubectlResult,
} from '../support/kube.js';

let ns = '';

test.before(async () => {
  await applyAllCrds();
  ns = await createNamespace('e2e-pzc-names');
});

test.after.always(async () => {
  if (ns) await deleteNamespace(ns);
});

function pzc(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name, namespace: ns },
    spec: { deletionPolicy: 'Orphan', ...spec },
  });
}

const applyPzc = (name: string, spec: Record<string, unknown>): Promise<KubectlResult> =>
  kubectlRaw(['apply', '-f', '-'], pzc(name, spec));

const cases: { title: string; name: string; spec: Record<string, unknown>; error?: RegExp }[] = [
  {
    title: 'a dotted metadata.name used as the zone name',
    name: 'shop.example.com',
    spec: {},
    error: /metadata\.name is the pull zone name/,
  },
  {
    title: 'a 61-character metadata.name used as the zone name',
    name: 'a'.repeat(61),
    spec: {},
    error: /metadata\.name is the pull zone name/,
  },
  {
    title: 'a dotted metadata.name with a valid spec.name',
    name: 'shop.example.org',
    spec: { name: 'shop-example-org' },
  },
  {
    title: 'a dotted metadata.name adopting by id (the name is not used)',
    name: 'adopt.example.com',
    spec: { adoption: { policy: 'ById', id: 12345 } },
  },
  {
    title: 'spec.name with a space',
    name: 'spaced',
    spec: { name: 'my zone' },
    error: /spec\.name.*should match|spec\.name: Invalid value/,
  },
  {
    title: 'spec.name with a dot',
    name: 'dotted',
    spec: { name: 'my.zone' },
    error: /spec\.name/,
  },
  {
    title: 'spec.name of 61 characters',
    name: 'long-name',
    spec: { name: 'b'.repeat(61) },
    error: /spec\.name.*(longer than 60|Too long|at most 60)/,
  },
  { title: 'spec.name of 60 characters', name: 'max-name', spec: { name: 'B'.repeat(60) } },
];

for (const c of cases) {
  test(`${c.error ? 'rejected' : 'accepted'} at apply time: ${c.title}`, async (t) => {
    const r = await applyPzc(c.name, c.spec);
    if (c.error) {
      t.not(r.code, 0, `accepted: ${r.stdout}`);
      t.regex(r.stderr, c.error);
    } else {
      t.is(r.code, 0, r.stderr);
    }
  });
}

test('spec.name cannot be added, changed or removed; a no-op equal to metadata.name passes', async (t) => {
  t.is((await applyPzc('imm', {})).code, 0);
  const added = await applyPzc('imm', { name: 'other-zone' });
  t.not(added.code, 0, 'adding a different name');
  t.regex(added.stderr, /spec\.name is immutable/);
  t.is((await applyPzc('imm', { name: 'imm' })).code, 0, 'adding the default itself');
  const changed = await applyPzc('imm', { name: 'imm-2' });
  t.not(changed.code, 0, 'changing');
  t.regex(changed.stderr, /spec\.name is immutable/);

  t.is((await applyPzc('imm-named', { name: 'zone-b' })).code, 0);
  const removed = await kubectlRaw([
    'patch',
    'pullzoneconfigs.pullzones.cdn.operator.io',
    'imm-named',
    '-n',
    ns,
    '--type=json',
    '-p',
    '[{"op":"remove","path":"/spec/name"}]',
  ]);
  t.not(removed.code, 0, 'removing');
  t.regex(removed.stderr, /spec\.name is immutable/);
  const merge = await kubectlRaw([
    'patch',
    'pullzoneconfigs.pullzones.cdn.operator.io',
    'imm-named',
    '-n',
    ns,
    '--type=merge',
    '-p',
    '{"spec":{"name":"zone-c"}}',
  ]);
  t.not(merge.code, 0, 'changing by merge patch');
});
