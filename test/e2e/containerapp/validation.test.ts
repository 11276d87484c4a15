/**
 * ContainerApp validation and policies end to end: invalid autoscaling and an endpoint of two
 * types rejected by the apiserver at apply time (CEL), a platform validation problem surfaced in Synced with the
 * spec path, dry-run plan, and deletion with deletionPolicy Orphan.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/openapi-docs.js';
import { apply, deleteObject, getObject, kubectl, kubectlRaw, waitFor } from '../support/kube.js';
import {
  appWrites,
  cappYaml,
  container,
  RESOURCE,
  simCalls,
  startEnv,
  waitCondition,
  type Env,
} from './setup.js';

let env: Env;

test.before(async () => {
  env = await startEnv('e2e-capp-val');
});

test.after.always(async () => {
  await env?.stop();
});

test('autoScaling.min > max is rejected at apply time', async (t) => {
  const r = await kubectlRaw(
    ['apply', '-f', '-'],
    cappYaml(env.ns, 'bad-scaling', {
      name: 'bad scaling',
      autoScaling: { min: 5, max: 2 },
      containerTemplates: [container('web', 'nginx', '1.25')],
    }),
  );
  t.not(r.code, 0);
  t.regex(r.stderr, /autoScaling.min must be less than or equal to autoScaling.max/);
  t.is(await getObject(RESOURCE, env.ns, 'bad-scaling'), undefined);
});

test('an endpoint with both cdn and anycast is rejected at apply time', async (t) => {
  const r = await kubectlRaw(
    ['apply', '-f', '-'],
    cappYaml(env.ns, 'both-types', {
      name: 'both types',
      autoScaling: { min: 1, max: 1 },
      containerTemplates: [
        container('web', 'nginx', '1.25', {
          endpoints: [
            {
              displayName: 'edge',
              cdn: { sslEnabled: true },
              anycast: { portMappings: [{ containerPort: 80 }] },
            },
          ],
        }),
      ],
    }),
  );
  t.not(r.code, 0);
  t.regex(r.stderr, /an endpoint is either cdn or anycast, not both/);
  t.is(await getObject(RESOURCE, env.ns, 'both-types'), undefined);
});

test.serial('platform validation problem surfaces in Synced with the spec path', async (t) => {
  await apply(
    cappYaml(env.ns, 'bad-mount', {
      name: 'bad mount',
      autoScaling: { min: 1, max: 1 },
      containerTemplates: [
        container('web', 'nginx', '1.25', {
          volumeMounts: [{ name: 'nope', mountPath: '/data' }],
        }),
      ],
    }),
  );
  const obj = await waitCondition(env.ns, 'bad-mount', 'Synced', 'False', 'InvalidSpec');
  const synced = obj.status?.conditions?.find((c) => c.type === 'Synced');
  t.regex(synced?.message ?? '', /spec\.containerTemplates\[web\]\.volumeMounts\[\/data\]\.name/);
  t.falsy(obj.status?.appId);

  // Fixing the spec clears the error.
  await apply(
    cappYaml(env.ns, 'bad-mount', {
      name: 'bad mount',
      autoScaling: { min: 1, max: 1 },
      containerTemplates: [
        container('web', 'nginx', '1.25', { volumeMounts: [{ name: 'data', mountPath: '/data' }] }),
      ],
      volumes: [{ name: 'data', sizeGigabytes: 1 }],
    }),
  );
  const fixed = await waitCondition(env.ns, 'bad-mount', 'Ready', 'True');
  t.truthy(fixed.status?.appId);
});

test.serial('dry-run plans an image change without writing it', async (t) => {
  const spec = {
    name: 'planned',
    autoScaling: { min: 1, max: 1 },
    containerTemplates: [container('web', 'nginx', '1.25'), container('worker', 'busybox', '1')],
  };
  await apply(cappYaml(env.ns, 'planned', spec));
  await waitCondition(env.ns, 'planned', 'Ready', 'True');
  const from = (await simCalls(env.sim)).length;
  spec.containerTemplates[0]!.imageTag = '1.27';
  await apply(cappYaml(env.ns, 'planned', spec, { 'cdn.operator.io/dry-run': 'true' }));
  const obj = await waitCondition(env.ns, 'planned', 'Synced', 'False', 'DryRun');
  t.deepEqual(obj.status?.plannedChanges, [
    { field: 'containerTemplates[web].imageTag', live: '1.25', desired: '1.27' },
  ]);
  t.deepEqual(await appWrites(env.sim, from), [], 'nothing written in dry-run');
});

test.serial('delete with deletionPolicy Orphan leaves the application', async (t) => {
  await apply(
    cappYaml(env.ns, 'kept', {
      name: 'kept app',
      deletionPolicy: 'Orphan',
      autoScaling: { min: 1, max: 1 },
      containerTemplates: [container('web', 'nginx', '1.25')],
    }),
  );
  const obj = await waitCondition(env.ns, 'kept', 'Ready', 'True');
  const appId = String(obj.status?.appId);
  await deleteObject(RESOURCE, env.ns, 'kept');
  await waitFor(
    async () => (await getObject(RESOURCE, env.ns, 'kept')) === undefined,
    60_000,
    'object gone',
  );
  t.true(env.sim.state.apps.has(appId), 'application left on the platform');
});

test('examples/containerapp.yaml is accepted by the apiserver', async (t) => {
  const text = readFileSync(join(REPO_ROOT, 'examples', 'containerapp.yaml'), 'utf8');
  const out = await kubectl(['apply', '--dry-run=server', '-n', env.ns, '-f', '-'], text);
  t.regex(out, /containerapp.containers.cdn.operator.io\/shop-app created \(server dry run\)/);
});
