/**
 * Crash between create and id record: the simulator commits the create and drops the answer
 * (`commitThenDropRate: 1`), the operator is killed in that window and restarted with the
 * fault cleared. The create went out under the object's provisional name (docs/kit.md), and the
 * signed create-pending marker makes the new process look for that name only: exactly one
 * application exists, its id is recorded and it carries its real name.
 */
import test from 'ava';
import { apply, getObject, waitFor } from '../support/kube.js';
import {
  cappYaml,
  container,
  RESOURCE,
  setFaults,
  simCalls,
  startEnv,
  waitCondition,
  type Env,
} from './setup.js';

let env: Env;

test.before(async () => {
  env = await startEnv('e2e-capp-crash');
});

test.after.always(async () => {
  await env?.stop();
});

function appsNamed(name: string): string[] {
  return [...env.sim.state.apps.values()]
    .filter((a) => a.app.name === name)
    .map((a) => String(a.app.id));
}

test('operator killed after a committed but unanswered create leaves exactly one app', async (t) => {
  await setFaults(env.sim, { commitThenDropRate: 1, errorRoutes: ['POST /mc/apps'] });
  await apply(
    cappYaml(env.ns, 'crashy', {
      name: 'crashy app',
      autoScaling: { min: 1, max: 1 },
      containerTemplates: [container('web', 'nginx', '1.25')],
    }),
  );
  const provisional = (): string[] =>
    [...env.sim.state.apps.values()]
      .filter((a) => /^cdnop-[0-9a-f]{16}$/.test(String(a.app.name)))
      .map((a) => String(a.app.id));
  await waitFor(() => provisional().length > 0, 60_000, 'create committed');
  await env.operator.kill();
  const pending = await getObject(RESOURCE, env.ns, 'crashy');
  t.regex(
    pending?.metadata.annotations?.['cdn.operator.io/create-pending'] ?? '',
    /^v1\.\d+\./,
    'the signed create-pending marker was written (with the finalizer) before the create',
  );
  t.is(pending?.status?.appId, undefined, 'the id was never recorded');

  await setFaults(env.sim, {});
  await env.restartOperator();
  const obj = await waitCondition(env.ns, 'crashy', 'Ready', 'True');
  const apps = appsNamed('crashy app');
  t.is(apps.length, 1, 'exactly one application');
  t.is(obj.status?.appId, apps[0]);
  const posts = (await simCalls(env.sim)).filter((c) => c.route === 'POST /mc/apps');
  t.is(posts.length, 1, 'no second create');
  t.deepEqual(provisional(), [], 'renamed: no application left under a provisional name');
});
