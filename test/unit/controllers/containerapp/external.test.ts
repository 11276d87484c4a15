/**
 * ContainerAppExternal against an in-process cdn-sim: the writes it makes (counted through
 * the simulator's admin API), ids kept across updates, convergence (observe is up to date
 * after each update), adoption after an unrecorded create, errors mapped to spec paths.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import {
  ContainerAppExternal,
  type AppsApi,
} from '../../../../src/controllers/containerapp/external.js';
import { classifyContainerAppError } from '../../../../src/controllers/containerapp/errors.js';
import {
  envKey,
  NO_REFS,
  type ResolvedRefs,
} from '../../../../src/controllers/containerapp/mapping.js';
import type {
  ContainerAppSpec,
  ContainerAppStatus,
} from '../../../../src/controllers/containerapp/types.js';
import type { ExternalContext, Observation } from '../../../../src/runtime/types.js';
import type { AppSeen } from '../../../../src/controllers/containerapp/external.js';
import { appObjectOf, baseSpec, externalCtxOf } from './fixtures.js';

const API_KEY = 'unit-test-key';
let sim: SimulatorHandle;
let client: CdnClient;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
});

test.after.always(async () => {
  await sim?.close();
});

async function callCount(route: string): Promise<number> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  const body = (await res.json()) as { routes: Record<string, { count: number }> };
  return body.routes[route]?.count ?? 0;
}

/** A unique app name per test (tests share one simulator). */
function specNamed(name: string): ContainerAppSpec {
  const spec = baseSpec();
  spec.name = name;
  return spec;
}

interface Harness {
  ext: ContainerAppExternal;
  appId: string;
  status: ContainerAppStatus;
  /** Observe, then update when needed; merges status like the runtime does. */
  sync(spec: ContainerAppSpec): Promise<Observation<AppSeen>>;
  observe(spec: ContainerAppSpec): Promise<Observation<AppSeen>>;
}

async function createApp(
  spec: ContainerAppSpec,
  refs: () => ResolvedRefs = () => NO_REFS,
): Promise<Harness> {
  const ext = new ContainerAppExternal(client, () => Promise.resolve(refs()));
  const created = await ext.create(appObjectOf(spec), externalCtxOf());
  const h: Harness = {
    ext,
    appId: created.externalId,
    status: { ...(created.status as ContainerAppStatus) },
    async observe(s) {
      const obs = await ext.observe(appObjectOf(s, h.status), externalCtxOf(h.appId));
      Object.assign(h.status, obs.status);
      return obs;
    },
    async sync(s) {
      const obs = await h.observe(s);
      if (!obs.upToDate) {
        const res = await ext.update(appObjectOf(s, h.status), obs, externalCtxOf(h.appId));
        if (res?.status) Object.assign(h.status, res.status);
      }
      return obs;
    },
  };
  return h;
}

function containerIds(status: ContainerAppStatus): Record<string, string> {
  return Object.fromEntries((status.containers ?? []).map((c) => [c.name, c.id]));
}

test.serial(
  'create, then observe is up to date with ids, hosts and addresses in status',
  async (t) => {
    const spec = specNamed('ext create');
    const h = await createApp(spec);
    t.truthy(h.appId);
    t.deepEqual(h.status.appliedWriteOnly, {});
    const obs = await h.observe(spec);
    t.true(obs.exists);
    t.deepEqual(obs.diff, [], 'a freshly created app matches its spec');
    t.true(obs.upToDate);
    const web = h.status.containers?.find((c) => c.name === 'web');
    t.truthy(web?.id);
    t.is(web?.endpoints.length, 1);
    t.truthy(web?.endpoints[0]?.publicHost);
    t.truthy(web?.endpoints[0]?.id);
    t.like(h.status.volumes?.[0], { name: 'data', sizeGigabytes: 5 }, 'status names its unit');
    t.is(typeof web?.endpoints[0]?.pullZoneId, 'number', 'an integer like every pull zone id');
  },
);

test.serial('image change of one container: exactly one PATCH, all ids kept', async (t) => {
  const spec = specNamed('ext image');
  const h = await createApp(spec);
  await h.observe(spec);
  const before = containerIds(h.status);
  const endpointBefore = h.status.containers?.[0]?.endpoints[0]?.id;
  const patches = await callCount('PATCH /mc/apps/{appId}');
  spec.containerTemplates[0]!.imageTag = '1.27';
  const obs = await h.sync(spec);
  t.deepEqual(
    obs.diff.map((d) => d.field),
    ['containerTemplates[web].imageTag'],
  );
  t.is((await callCount('PATCH /mc/apps/{appId}')) - patches, 1);
  t.deepEqual(containerIds(h.status), before, 'container ids preserved');
  t.is(h.status.containers?.[0]?.endpoints[0]?.id, endpointBefore, 'endpoint id preserved');
  const live = await client.getApp(h.appId);
  t.is(live.containerTemplates.find((c) => c.name === 'web')?.imageTag, '1.27');
  t.is(live.containerTemplates.find((c) => c.name === 'worker')?.imageTag, '1.36');
  t.true((await h.observe(spec)).upToDate, 'converged');
});

interface StepCase {
  name: string;
  edit: (s: ContainerAppSpec) => void;
  check: (
    t: import('ava').ExecutionContext,
    before: ContainerAppStatus,
    after: ContainerAppStatus,
  ) => void;
}

const steps: StepCase[] = [
  {
    name: 'add a container',
    edit: (s) =>
      s.containerTemplates.push({
        name: 'cron',
        imageName: 'alpine',
        imageNamespace: 'library',
        imageTag: '3',
        imageRegistryId: 'dockerhub',
      }),
    check: (t, before, after) => {
      t.is(after.containers?.length, 3);
      const ids = containerIds(after);
      t.is(ids.web, containerIds(before).web);
      t.is(ids.worker, containerIds(before).worker);
      t.truthy(ids.cron);
    },
  },
  {
    name: 'remove a container',
    edit: (s) => void s.containerTemplates.splice(1, 1),
    check: (t, before, after) => {
      t.deepEqual(containerIds(after), { web: containerIds(before).web! });
    },
  },
  {
    name: 'add a volume',
    edit: (s) => void s.volumes!.push({ name: 'cache', sizeGigabytes: 2 }),
    check: (t, before, after) => {
      t.deepEqual(
        after.volumes?.map((v) => v.name),
        ['data', 'cache'],
      );
      t.is(after.volumes?.[0]?.id, before.volumes?.[0]?.id, 'kept volume id preserved');
    },
  },
  {
    name: 'remove a volume',
    edit: (s) => {
      s.volumes = [];
      s.containerTemplates[0]!.volumeMounts = [];
    },
    check: (t, _before, after) => t.deepEqual(after.volumes, []),
  },
  {
    name: 'add an endpoint',
    edit: (s) =>
      void s.containerTemplates[0]!.endpoints!.push({
        displayName: 'admin',
        cdn: { portMappings: [{ containerPort: 8081 }] },
      }),
    check: (t, before, after) => {
      const eps = after.containers?.find((c) => c.name === 'web')?.endpoints ?? [];
      t.deepEqual(
        eps.map((e) => e.displayName),
        ['http', 'admin'],
      );
      t.is(eps[0]?.id, before.containers?.[0]?.endpoints[0]?.id, 'kept endpoint id preserved');
    },
  },
  {
    name: 'remove an endpoint',
    edit: (s) => void (s.containerTemplates[0]!.endpoints = []),
    check: (t, _before, after) => {
      t.deepEqual(after.containers?.find((c) => c.name === 'web')?.endpoints, []);
    },
  },
];

for (const step of steps) {
  test.serial(`${step.name}: one PATCH, converges`, async (t) => {
    const spec = specNamed(`ext ${step.name}`);
    const h = await createApp(spec);
    await h.observe(spec);
    const before = structuredClone(h.status);
    const patches = await callCount('PATCH /mc/apps/{appId}');
    step.edit(spec);
    await h.sync(spec);
    t.is((await callCount('PATCH /mc/apps/{appId}')) - patches, 1);
    step.check(t, before, h.status);
    const again = await h.observe(spec);
    t.deepEqual(again.diff, [], 'no drift left after the update');
  });
}

test.serial('terminationGracePeriodSeconds change uses one PUT and keeps ids', async (t) => {
  const spec = specNamed('ext put');
  spec.terminationGracePeriodSeconds = 30;
  const h = await createApp(spec);
  await h.observe(spec);
  t.true((await h.observe(spec)).upToDate, 'recorded write-only value matches');
  const before = containerIds(h.status);
  const puts = await callCount('PUT /mc/apps/{appId}');
  const patches = await callCount('PATCH /mc/apps/{appId}');
  spec.terminationGracePeriodSeconds = 60;
  const obs = await h.sync(spec);
  t.deepEqual(
    obs.diff.map((d) => d.field),
    ['terminationGracePeriodSeconds'],
  );
  t.is((await callCount('PUT /mc/apps/{appId}')) - puts, 1);
  t.is((await callCount('PATCH /mc/apps/{appId}')) - patches, 0);
  t.deepEqual(containerIds(h.status), before);
  t.is(h.status.appliedWriteOnly?.terminationGracePeriodSeconds, 60);
  t.true((await h.observe(spec)).upToDate);
});

test.serial('a platform validation error names the spec path', async (t) => {
  const spec = specNamed('ext invalid');
  const h = await createApp(spec);
  await h.observe(spec);
  spec.containerTemplates[0]!.volumeMounts = [{ name: 'missing', mountPath: '/data' }];
  const obs = await h.observe(spec);
  const err = await t.throwsAsync(
    h.ext.update(appObjectOf(spec, h.status), obs, externalCtxOf(h.appId)),
  );
  const c = classifyContainerAppError(err);
  t.is(c.class, 'terminal');
  t.is(
    c.message,
    'patchApp (HTTP 400): spec.containerTemplates[web].volumeMounts[/data].name: volume missing is not defined in volumes',
    'spec paths only, the body field names are not repeated',
  );
});

test.serial(
  'secret-sourced variables: applied, hashed in status, plan without values',
  async (t) => {
    const spec = specNamed('ext secret');
    spec.containerTemplates[0]!.environmentVariables = [
      { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'token' } } },
    ];
    const key = envKey('web', 'TOKEN');
    let value = 'first-value';
    const refs = (): ResolvedRefs => ({
      env: new Map([[key, value]]),
      secretEnv: new Set([key]),
      pullZones: new Map(),
    });
    const h = await createApp(spec, refs);
    const firstHash = h.status.environmentHash;
    t.regex(firstHash ?? '', /^sha256:/);
    value = 'second-value';
    const obs = await h.sync(spec);
    t.deepEqual(
      obs.diff.map((d) => d.field),
      ['containerTemplates[web].environmentVariables'],
    );
    t.false(JSON.stringify(obs.diff).includes('value'), 'no secret value in the plan');
    t.not(h.status.environmentHash, firstHash);
    t.false(JSON.stringify(h.status).includes('second-value'));
    const live = await client.getApp(h.appId);
    t.is(live.containerTemplates[0]?.environmentVariables[0]?.value, 'second-value');
  },
);

test.serial(
  'createPending: observe finds our app by its provisional name, never a same-named one',
  async (t) => {
    const spec = specNamed('ext pending');
    const foreign = await createApp(spec);
    const ext = new ContainerAppExternal(client, () => Promise.resolve(NO_REFS));
    const token = { createToken: '0a1b2c3d4e5f6071' };
    const pending = { ...externalCtxOf(undefined, true), ...token };
    t.false((await ext.observe(appObjectOf(spec), pending)).exists, 'a same-named app is not ours');
    const made = await ext.create(appObjectOf(spec), { ...externalCtxOf(), ...token });
    const obs = await ext.observe(appObjectOf(spec), pending);
    t.is(obs.externalId, made.externalId);
    t.not(obs.externalId, foreign.appId);
    const noLookup = await ext.observe(appObjectOf(spec), externalCtxOf(undefined, false));
    t.false(noLookup.exists, 'without a pending create there is no lookup by name');
  },
);

test.serial('createPending: an app another object manages is never taken by name', async (t) => {
  const spec = specNamed('ext pending claimed');
  const ext = new ContainerAppExternal(client, () => Promise.resolve(NO_REFS));
  const token = { createToken: '1a1b2c3d4e5f6071' };
  const made = await ext.create(appObjectOf(spec), { ...externalCtxOf(), ...token });
  const theirs = { appId: made.externalId };
  const ctx: ExternalContext = {
    ...externalCtxOf(undefined, true),
    ...token,
    claimedByOther: (type, id) => type === 'ContainerApp' && id === theirs.appId,
  };
  t.false((await ext.observe(appObjectOf(spec), ctx)).exists, 'skipped: it is not ours');
});

test.serial(
  'adoption by name only with spec.adoption.policy ByName and exactly one match',
  async (t) => {
    const spec = specNamed('ext adopt by name');
    const h = await createApp(spec);
    const ext = new ContainerAppExternal(client, () => Promise.resolve(NO_REFS));
    const byName = { ...spec, adoption: { policy: 'ByName' } } as ContainerAppSpec;
    const obs = await ext.observe(appObjectOf(byName), externalCtxOf());
    t.is(obs.externalId, h.appId);
    await createApp(spec);
    const err = await t.throwsAsync(ext.observe(appObjectOf(byName), externalCtxOf()));
    t.is(classifyContainerAppError(err).reason, 'AmbiguousName');
    const missing = { ...specNamed('ext adopt none'), adoption: { policy: 'ByName' } };
    const none = await t.throwsAsync(
      ext.observe(appObjectOf(missing as ContainerAppSpec), externalCtxOf()),
    );
    t.is(classifyContainerAppError(none).reason, 'NotFound');
  },
);

test.serial(
  'adoption by name uses the platform case rule: application names are not unique, so case counts',
  async (t) => {
    const spec = specNamed('ext-case-app');
    const h = await createApp(spec);
    const ext = new ContainerAppExternal(client, () => Promise.resolve(NO_REFS));
    const upper = { ...specNamed('EXT-CASE-APP'), adoption: { policy: 'ByName' } };
    const err = await t.throwsAsync(
      ext.observe(appObjectOf(upper as ContainerAppSpec), externalCtxOf()),
    );
    t.is(classifyContainerAppError(err).reason, 'NotFound', 'EXT-CASE-APP is another name');
    const exact = { ...spec, adoption: { policy: 'ByName' } } as ContainerAppSpec;
    t.is((await ext.observe(appObjectOf(exact), externalCtxOf())).externalId, h.appId);
  },
);

test.serial('adoption of a missing app id is terminal; delete is idempotent', async (t) => {
  const spec = specNamed('ext delete');
  const h = await createApp(spec);
  await h.ext.delete(appObjectOf(spec), externalCtxOf(h.appId));
  await t.notThrowsAsync(h.ext.delete(appObjectOf(spec), externalCtxOf(h.appId)));
  const adopted: ContainerAppSpec = { ...spec, adoption: { policy: 'ById', id: h.appId } };
  const err = await t.throwsAsync(h.ext.observe(appObjectOf(adopted), externalCtxOf(h.appId)));
  t.is(classifyContainerAppError(err).reason, 'NotFound');
  const deleting = appObjectOf(adopted);
  deleting.metadata.deletionTimestamp = new Date().toISOString();
  t.false(
    (await h.ext.observe(deleting, externalCtxOf(h.appId))).exists,
    'gone during deletion is fine',
  );
});

test.serial(
  'a container that vanishes between the two reads is reported from the app read',
  async (t) => {
    const spec = specNamed('ext vanish');
    const h = await createApp(spec);
    const api: AppsApi = {
      listApps: (o) => client.listApps(o),
      getApp: (id, o) => client.getApp(id, o),
      createApp: (b, o) => client.createApp(b, o),
      replaceApp: (id, b, o) => client.replaceApp(id, b, o),
      patchApp: (id, b, o) => client.patchApp(id, b, o),
      deleteApp: (id, o) => client.deleteApp(id, o),
      listVolumes: (id, o) => client.listVolumes(id, o),
      getLogForwarding: (id, o) => client.getLogForwarding(id, o),
      createLogForwarding: (b, o) => client.createLogForwarding(b, o),
      replaceLogForwarding: (id, b, o) => client.replaceLogForwarding(id, b, o),
      deleteLogForwarding: (id, o) => client.deleteLogForwarding(id, o),
      getContainer: () =>
        Promise.reject(
          new CdnApiError({ operation: 'getContainer', kind: 'notFound', message: 'gone' }),
        ),
    };
    const ext = new ContainerAppExternal(api, () => Promise.resolve(NO_REFS));
    const obs = await ext.observe(appObjectOf(spec, h.status), externalCtxOf(h.appId));
    const containers = (obs.status as ContainerAppStatus).containers ?? [];
    t.deepEqual(
      containers.map((c) => c.name),
      ['web', 'worker'],
    );
  },
);
