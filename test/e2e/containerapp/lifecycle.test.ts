/**
 * ContainerApp end to end with `kubectl apply`, a real kube-apiserver, a real operator process
 * and cdn-sim: create (one POST), update of one container's image (one PATCH, other containers
 * untouched, ids kept), add and remove a container, add and remove a volume and an endpoint,
 * printer columns, deletion with deletionPolicy Delete.
 */
import test from 'ava';
import { apply, deleteObject, getObject, kubectl, waitFor } from '../support/kube.js';
import {
  appWrites,
  cappYaml,
  container,
  containerIds,
  RESOURCE,
  simCalls,
  startEnv,
  waitCondition,
  type Env,
} from './setup.js';

let env: Env;

test.before(async () => {
  env = await startEnv('e2e-capp');
});

test.after.always(async () => {
  await env?.stop();
});

const NAME = 'shop';

/** The spec the steps edit. */
function baseSpec(): Record<string, unknown> & {
  containerTemplates: Record<string, unknown>[];
  volumes: Record<string, unknown>[];
} {
  return {
    name: 'shop app',
    autoScaling: { min: 1, max: 3 },
    regionSettings: { allowedRegionIds: ['DE', 'UK'], requiredRegionIds: ['DE'] },
    containerTemplates: [
      container('web', 'nginx', '1.25', {
        environmentVariables: [{ name: 'MODE', value: 'prod' }],
        endpoints: [
          {
            displayName: 'http',
            cdn: { sslEnabled: true, portMappings: [{ containerPort: 80 }] },
          },
        ],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      }),
      container('worker', 'busybox', '1.36'),
    ],
    volumes: [{ name: 'data', sizeGigabytes: 5 }],
  };
}

let spec = baseSpec();
let appId = '';

/** Applies the spec, waits for the reconcile of the new generation, returns the writes it made. */
async function applyAndSettle(): Promise<string[]> {
  const from = (await simCalls(env.sim)).length;
  await apply(cappYaml(env.ns, NAME, spec));
  await waitCondition(env.ns, NAME, 'Synced', 'True');
  await waitCondition(env.ns, NAME, 'Ready', 'True');
  // A further pass must find nothing to do: give it a moment, then read the writes.
  await new Promise((r) => setTimeout(r, 1500));
  return appWrites(env.sim, from);
}

function liveApp(): Record<string, unknown> & {
  containerTemplates: {
    id: string;
    name: string;
    imageTag: string;
    endpoints: { id: string; displayName: string }[];
  }[];
  volumes: { id: string; name: string }[];
} {
  const stored = env.sim.state.apps.get(appId);
  if (!stored) throw new Error(`application ${appId} is not in the simulator`);
  return stored.app as ReturnType<typeof liveApp>;
}

test.serial(
  'create: one POST /mc/apps and its rename, Ready, ids and endpoints in status, printer columns',
  async (t) => {
    const writes = await applyAndSettle();
    // The create goes out under the provisional name (the proof a lost create is ours,
    // docs/kit.md); the same pass renames it.
    t.deepEqual(writes, ['POST /mc/apps', 'PATCH /mc/apps/{appId}'], 'the create and its rename');
    const obj = await waitCondition(env.ns, NAME, 'Ready', 'True');
    appId = String(obj.status?.appId);
    t.truthy(env.sim.state.apps.get(appId), 'status.appId names the created application');
    const ids = containerIds(obj);
    t.deepEqual(Object.keys(ids).sort(), ['web', 'worker']);
    const web = (
      obj.status?.containers as { name: string; endpoints: { publicHost?: string }[] }[]
    ).find((c) => c.name === 'web');
    t.truthy(web?.endpoints[0]?.publicHost, 'endpoint public host reported');
    const table = await kubectl(['get', 'capp', NAME, '-n', env.ns]);
    t.regex(table, /NAME\s+READY\s+SYNCED\s+ID\s+AGE/);
    t.regex(table, new RegExp(`${NAME}\\s+True\\s+True\\s+${appId}`));
    const byCategory = await kubectl(['get', 'cdn', '-n', env.ns]);
    t.regex(byCategory, new RegExp(`containerapp.containers.cdn.operator.io/${NAME}`));
  },
);

test.serial(
  'update one container image: one PATCH, other containers untouched, ids kept',
  async (t) => {
    const before = liveApp();
    const idsBefore = Object.fromEntries(before.containerTemplates.map((c) => [c.name, c.id]));
    const endpointBefore = before.containerTemplates.find((c) => c.name === 'web')!.endpoints[0]!
      .id;
    spec.containerTemplates[0]!.imageTag = '1.27';
    const writes = await applyAndSettle();
    t.deepEqual(writes, ['PATCH /mc/apps/{appId}']);
    const after = liveApp();
    t.deepEqual(Object.fromEntries(after.containerTemplates.map((c) => [c.name, c.id])), idsBefore);
    t.is(after.containerTemplates.find((c) => c.name === 'web')!.imageTag, '1.27');
    t.is(after.containerTemplates.find((c) => c.name === 'worker')!.imageTag, '1.36');
    t.is(after.containerTemplates.find((c) => c.name === 'web')!.endpoints[0]!.id, endpointBefore);
    const obj = await getObject(RESOURCE, env.ns, NAME);
    t.deepEqual(containerIds(obj!), idsBefore, 'status keeps the same ids');
  },
);

test.serial('add a container: one PATCH, existing ids kept', async (t) => {
  const idsBefore = Object.fromEntries(liveApp().containerTemplates.map((c) => [c.name, c.id]));
  spec.containerTemplates.push(container('cron', 'alpine', '3'));
  const writes = await applyAndSettle();
  t.deepEqual(writes, ['PATCH /mc/apps/{appId}']);
  const ids = Object.fromEntries(liveApp().containerTemplates.map((c) => [c.name, c.id]));
  t.is(ids.web, idsBefore.web);
  t.is(ids.worker, idsBefore.worker);
  t.truthy(ids.cron);
  const obj = await waitFor(
    async () => {
      const o = await getObject(RESOURCE, env.ns, NAME);
      return o && containerIds(o).cron ? o : undefined;
    },
    30_000,
    'cron in status',
  );
  t.is(containerIds(obj).cron, ids.cron);
});

test.serial('remove a container: one PATCH, the others kept', async (t) => {
  const idsBefore = Object.fromEntries(liveApp().containerTemplates.map((c) => [c.name, c.id]));
  spec.containerTemplates = spec.containerTemplates.filter((c) => c.name !== 'worker');
  const writes = await applyAndSettle();
  t.deepEqual(writes, ['PATCH /mc/apps/{appId}']);
  const ids = Object.fromEntries(liveApp().containerTemplates.map((c) => [c.name, c.id]));
  t.deepEqual(ids, { web: idsBefore.web, cron: idsBefore.cron });
});

test.serial('add a volume and an endpoint: one PATCH, existing ones kept by id', async (t) => {
  const before = liveApp();
  const volumeId = before.volumes[0]!.id;
  const endpointId = before.containerTemplates.find((c) => c.name === 'web')!.endpoints[0]!.id;
  spec.volumes.push({ name: 'cache', sizeGigabytes: 2 });
  (spec.containerTemplates[0]!.endpoints as unknown[]).push({
    displayName: 'admin',
    cdn: { portMappings: [{ containerPort: 8081 }] },
  });
  const writes = await applyAndSettle();
  t.deepEqual(writes, ['PATCH /mc/apps/{appId}']);
  const after = liveApp();
  t.deepEqual(
    after.volumes.map((v) => v.name),
    ['data', 'cache'],
  );
  t.is(after.volumes[0]!.id, volumeId);
  const eps = after.containerTemplates.find((c) => c.name === 'web')!.endpoints;
  t.deepEqual(
    eps.map((e) => e.displayName),
    ['http', 'admin'],
  );
  t.is(eps[0]!.id, endpointId);
});

test.serial('remove the volume and the endpoint: one PATCH', async (t) => {
  spec.volumes = spec.volumes.filter((v) => v.name !== 'cache');
  spec.containerTemplates[0]!.endpoints = (
    spec.containerTemplates[0]!.endpoints as { displayName: string }[]
  ).filter((e) => e.displayName !== 'admin');
  const writes = await applyAndSettle();
  t.deepEqual(writes, ['PATCH /mc/apps/{appId}']);
  const after = liveApp();
  t.deepEqual(
    after.volumes.map((v) => v.name),
    ['data'],
  );
  t.deepEqual(
    after.containerTemplates.find((c) => c.name === 'web')!.endpoints.map((e) => e.displayName),
    ['http'],
  );
});

test.serial(
  'probe with a numeric expectedStatusCode and a volume resize: one PATCH, documented values',
  async (t) => {
    const volumeId = liveApp().volumes[0]!.id;
    spec.containerTemplates[0]!.probes = {
      readiness: {
        initialDelaySeconds: 5,
        httpGet: {
          request: { path: '/healthz', portNumber: 80 },
          response: { expectedStatusCode: 200 },
        },
      },
    };
    spec.volumes[0]!.sizeGigabytes = 8;
    const writes = await applyAndSettle();
    t.deepEqual(writes, ['PATCH /mc/apps/{appId}']);
    const after = liveApp();
    const web = after.containerTemplates.find((c) => c.name === 'web') as unknown as {
      probes: { readiness: { httpGet: { response: { expectedStatusCode: string } } } };
    };
    t.is(web.probes.readiness.httpGet.response.expectedStatusCode, 'ok', 'sent by its name');
    t.like(after.volumes[0], { id: volumeId, size: 8 }, 'the same volume, resized');
  },
);

test.serial(
  'terminationGracePeriodSeconds: one PUT that keeps volumes and endpoints',
  async (t) => {
    const before = liveApp();
    const endpointId = before.containerTemplates.find((c) => c.name === 'web')!.endpoints[0]!.id;
    spec.terminationGracePeriodSeconds = 45;
    const writes = await applyAndSettle();
    t.deepEqual(writes, ['PUT /mc/apps/{appId}']);
    const after = liveApp();
    t.is(after.volumes[0]!.id, before.volumes[0]!.id);
    t.is(after.containerTemplates.find((c) => c.name === 'web')!.endpoints[0]!.id, endpointId);
  },
);

test.serial('delete with deletionPolicy Delete removes the application', async (t) => {
  await deleteObject(RESOURCE, env.ns, NAME);
  await waitFor(
    async () => (await getObject(RESOURCE, env.ns, NAME)) === undefined,
    60_000,
    'object gone',
  );
  t.false(env.sim.state.apps.has(appId), 'application deleted on the platform');
  spec = baseSpec();
});

test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
