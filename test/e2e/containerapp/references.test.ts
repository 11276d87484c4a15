/**
 * ContainerApp references end to end: an environment variable from a Secret (applied, updated
 * when the Secret changes, its value never in logs, status or events) and an endpoint whose
 * `cdn.pullZoneRef` names a PullZoneConfig (ReferenceNotReady until the zone has an id, then
 * the app is created with that pull zone).
 */
import test from 'ava';
import { apply, getObject, waitFor } from '../support/kube.js';
import {
  appWrites,
  cappYaml,
  container,
  eventsText,
  RESOURCE,
  secretYaml,
  simCalls,
  startEnv,
  waitCondition,
  type Env,
} from './setup.js';

let env: Env;

test.before(async () => {
  env = await startEnv('e2e-capp-refs');
});

test.after.always(async () => {
  await env?.stop();
});

const FIRST = 'first-S3CRET-value-4f1c';
const SECOND = 'second-S3CRET-value-9a2e';

function envValue(appId: string, variable: string): string | undefined {
  const app = env.sim.state.apps.get(appId)?.app as
    | { containerTemplates: { environmentVariables: { name: string; value?: string }[] }[] }
    | undefined;
  return app?.containerTemplates[0]?.environmentVariables.find((v) => v.name === variable)?.value;
}

test.serial(
  'env from a Secret: applied, updated on Secret change, value never exposed',
  async (t) => {
    await apply(secretYaml(env.ns, 'app-secret', { token: FIRST }));
    await apply(
      cappYaml(env.ns, 'secret-app', {
        name: 'secret app',
        autoScaling: { min: 1, max: 2 },
        containerTemplates: [
          container('web', 'nginx', '1.25', {
            environmentVariables: [
              { name: 'MODE', value: 'prod' },
              { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'app-secret', key: 'token' } } },
            ],
          }),
        ],
      }),
    );
    const obj = await waitCondition(env.ns, 'secret-app', 'Ready', 'True');
    const appId = String(obj.status?.appId);
    t.is(envValue(appId, 'TOKEN'), FIRST);
    const firstHash = String(obj.status?.environmentHash);
    t.regex(firstHash, /^sha256:/);

    const from = (await simCalls(env.sim)).length;
    await apply(secretYaml(env.ns, 'app-secret', { token: SECOND }));
    await waitFor(() => envValue(appId, 'TOKEN') === SECOND, 60_000, 'new Secret value applied');
    const updated = await waitFor(
      async () => {
        const o = await getObject(RESOURCE, env.ns, 'secret-app');
        return o && o.status?.environmentHash !== firstHash ? o : undefined;
      },
      30_000,
      'environmentHash changed',
    );
    t.deepEqual(await appWrites(env.sim, from), ['PATCH /mc/apps/{appId}']);
    t.is(envValue(appId, 'MODE'), 'prod');

    const exposed = [
      ['status', JSON.stringify(updated)],
      ['events', await eventsText(env.ns)],
      ['operator logs', env.operator.output()],
    ];
    for (const [where, text] of exposed) {
      t.false(text!.includes(FIRST), `first value not in ${where}`);
      t.false(text!.includes(SECOND), `second value not in ${where}`);
    }
  },
);

test.serial(
  'endpoint pullZoneRef: ReferenceNotReady while the zone has no id, then resolved',
  async (t) => {
    await apply(
      cappYaml(env.ns, 'zone-app', {
        name: 'zone app',
        autoScaling: { min: 1, max: 1 },
        containerTemplates: [
          container('web', 'nginx', '1.25', {
            endpoints: [
              {
                displayName: 'http',
                cdn: { pullZoneRef: { name: 'demo-zone' }, portMappings: [{ containerPort: 80 }] },
              },
            ],
          }),
        ],
      }),
    );
    const waiting = await waitCondition(env.ns, 'zone-app', 'Ready', 'False', 'ReferenceNotReady');
    const ready = waiting.status?.conditions?.find((c) => c.type === 'Ready');
    t.regex(ready?.message ?? '', /PullZoneConfig .*demo-zone/);
    t.falsy(waiting.status?.appId, 'nothing created while waiting');

    await apply(
      JSON.stringify({
        apiVersion: 'pullzones.cdn.operator.io/v1beta1',
        kind: 'PullZoneConfig',
        metadata: { name: 'demo-zone', namespace: env.ns },
        spec: { settings: { originUrl: 'https://origin.example.com' } },
      }),
    );
    const zone = await waitFor(
      async () => {
        const z = await getObject('pullzoneconfigs.pullzones.cdn.operator.io', env.ns, 'demo-zone');
        return z?.status?.pullZoneId ? z : undefined;
      },
      60_000,
      'PullZoneConfig has a pull zone id',
    );
    const zoneId = Number(zone.status?.pullZoneId);
    const obj = await waitCondition(env.ns, 'zone-app', 'Ready', 'True');
    const endpoint = (
      obj.status?.containers as { endpoints: { pullZoneId?: number }[] }[] | undefined
    )?.[0]?.endpoints[0];
    t.is(endpoint?.pullZoneId, zoneId, 'the endpoint uses the referenced pull zone');
  },
);
