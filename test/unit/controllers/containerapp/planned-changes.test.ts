import test from 'ava';
import { compareApp } from '../../../../src/controllers/containerapp/diff.js';
import { envKey, type ResolvedRefs } from '../../../../src/controllers/containerapp/mapping.js';
import { describeChanges } from '../../../../src/controllers/containerapp/planned-changes.js';
import { baseSpec, desiredOf, liveOf } from './fixtures.js';

test('plan entries name items and fields in platform terms', (t) => {
  const live = liveOf(desiredOf(baseSpec()));
  const spec = baseSpec();
  spec.containerTemplates[0]!.imageTag = '1.27';
  spec.containerTemplates.splice(1, 1);
  spec.volumes!.push({ name: 'cache', sizeGigabytes: 2 });
  spec.autoScaling.max = 9;
  const desired = desiredOf(spec);
  const plan = describeChanges(compareApp(desired, live, undefined), desired, live, undefined);
  t.deepEqual(plan, [
    { field: 'autoScaling', live: '{"min":1,"max":3}', desired: '{"min":1,"max":9}' },
    { field: 'containerTemplates[web].imageTag', live: '1.25', desired: '1.27' },
    {
      field: 'containerTemplates[worker]',
      live: 'container c-worker library/busybox:1.36',
      desired: '<unset>',
    },
    { field: 'volumes[cache]', live: '<unset>', desired: '{"sizeGigabytes":2}' },
  ]);
});

test('a changed secret-sourced variable is planned without its values', (t) => {
  const spec = baseSpec();
  spec.containerTemplates[0]!.environmentVariables = [
    { name: 'MODE', value: 'prod' },
    { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
  ];
  const key = envKey('web', 'TOKEN');
  const before: ResolvedRefs = {
    env: new Map([[key, 'old-secret']]),
    secretEnv: new Set([key]),
    pullZones: new Map(),
  };
  const after: ResolvedRefs = {
    env: new Map([[key, 'new-secret']]),
    secretEnv: new Set([key]),
    pullZones: new Map(),
  };
  const live = liveOf(desiredOf(spec, before));
  const desired = desiredOf(spec, after);
  const plan = describeChanges(compareApp(desired, live, undefined), desired, live, undefined);
  t.is(plan.length, 1);
  t.is(plan[0]!.field, 'containerTemplates[web].environmentVariables');
  const text = JSON.stringify(plan);
  t.false(text.includes('old-secret'));
  t.false(text.includes('new-secret'));
  t.true(text.includes('TOKEN=<redacted>'));
  t.true(text.includes('MODE=prod'), 'non-secret values stay visible');
});
