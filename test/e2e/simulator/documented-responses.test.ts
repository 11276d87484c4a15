/**
 * The operator against cdn-sim in the documented response mode (`responses: 'documented'`):
 * every answer carries only the members and success status the official documents declare.
 * A short create -> update -> delete lifecycle of PullZoneConfig, ShieldPolicy and
 * ContainerApp must work without any undocumented member, and send nothing the documents
 * reject. (Every other lifecycle runs in this mode with CDN_E2E_SIM_RESPONSES=documented.)
 */
import test from 'ava';
import {
  apply,
  conditionOf,
  deleteObject,
  getObject,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';

const PZC = 'pullzoneconfigs.pullzones.cdn.operator.io';
const SHP = 'shieldpolicies.shield.cdn.operator.io';
const CAPP = 'containerapps.containers.cdn.operator.io';
const API_KEY = 'e2e-documented-key';

let env: OperatorEnv;

test.before(async () => {
  env = await startOperatorEnv('e2e-docresp', API_KEY, { responses: 'documented' });
});

test.after.always(async () => {
  await env?.stop();
});

function manifest(kind: string, name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name, namespace: env.ns },
    spec,
  });
}

/** Waits until Ready and Synced are True for the object's current generation. */
function waitSettled(resource: string, name: string, ms = 60_000): Promise<KubeJson> {
  return waitFor(
    async () => {
      const o = await getObject(resource, env.ns, name);
      const ready = conditionOf(o, 'Ready');
      const synced = conditionOf(o, 'Synced');
      const current =
        synced?.observedGeneration === undefined ||
        synced.observedGeneration === o?.metadata.generation;
      return ready?.status === 'True' && synced?.status === 'True' && current ? o : undefined;
    },
    ms,
    `${resource} ${name} Ready and Synced`,
    250,
  );
}

function waitGone(resource: string, name: string): Promise<boolean> {
  return waitFor(
    async () => ((await getObject(resource, env.ns, name)) === undefined ? true : undefined),
    60_000,
    `${resource} ${name} deleted`,
    250,
  );
}

function noRejections(t: { is: (a: unknown, b: unknown, m?: string) => void }): void {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, `requests the documents reject: ${JSON.stringify(rejected.log)}`);
}

test.serial('PullZoneConfig and ShieldPolicy: create, update, delete', async (t) => {
  await apply(
    manifest('PullZoneConfig', 'doc-zone', {
      deletionPolicy: 'Delete',
      settings: { originUrl: 'https://origin.example.com', originShieldMaxConcurrentRequests: 100 },
    }),
  );
  const zone = await waitSettled(PZC, 'doc-zone');
  const pullZoneId = Number(zone.status?.pullZoneId);
  t.true(pullZoneId > 0, 'the zone id comes from the documented create answer');
  t.is(zone.status?.cdnHostname, 'doc-zone.b-cdn.net');

  await apply(
    manifest('PullZoneConfig', 'doc-zone', {
      deletionPolicy: 'Delete',
      settings: { originUrl: 'https://origin.example.com', originShieldMaxConcurrentRequests: 300 },
    }),
  );
  await waitFor(
    () =>
      env.sim.state.pullZones.get(pullZoneId)?.record.OriginShieldMaxConcurrentRequests === 300
        ? true
        : undefined,
    60_000,
    'zone updated',
  );
  await waitSettled(PZC, 'doc-zone');

  await apply(
    manifest('ShieldPolicy', 'doc-shield', {
      pullZoneRef: { name: 'doc-zone' },
      waf: { enabled: true, executionMode: 'Block' },
    }),
  );
  const shield = await waitSettled(SHP, 'doc-shield');
  const shieldZoneId = Number(shield.status?.shieldZoneId);
  t.true(shieldZoneId > 0);
  t.is(env.sim.state.shieldZones.get(shieldZoneId)?.wafExecutionMode, 1);

  await apply(
    manifest('ShieldPolicy', 'doc-shield', {
      pullZoneRef: { name: 'doc-zone' },
      waf: { enabled: true, executionMode: 'Log' },
    }),
  );
  await waitFor(
    () => (env.sim.state.shieldZones.get(shieldZoneId)?.wafExecutionMode === 0 ? true : undefined),
    60_000,
    'shield zone updated',
  );
  await waitSettled(SHP, 'doc-shield');

  await deleteObject(SHP, env.ns, 'doc-shield');
  await waitGone(SHP, 'doc-shield');
  await deleteObject(PZC, env.ns, 'doc-zone');
  await waitGone(PZC, 'doc-zone');
  t.false(env.sim.state.pullZones.has(pullZoneId), 'the pull zone is deleted');
  noRejections(t);
});

test.serial('ContainerApp: create, update, delete', async (t) => {
  const spec = (tag: string): Record<string, unknown> => ({
    deletionPolicy: 'Delete',
    name: 'doc app',
    autoScaling: { min: 1, max: 2 },
    regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
    containerTemplates: [
      {
        name: 'web',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: tag,
        imageRegistryId: 'dockerhub',
      },
    ],
  });
  await apply(manifest('ContainerApp', 'doc-app', spec('1.25')));
  const created = await waitSettled(CAPP, 'doc-app');
  const appId = String(created.status?.appId);
  t.true(env.sim.state.apps.has(appId), 'the app id comes from the documented create answer');

  await apply(manifest('ContainerApp', 'doc-app', spec('1.27')));
  await waitFor(
    () => {
      const app = env.sim.state.apps.get(appId)?.app as
        { containerTemplates: { imageTag: string }[] } | undefined;
      return app?.containerTemplates[0]?.imageTag === '1.27' ? true : undefined;
    },
    60_000,
    'app updated',
  );
  await waitSettled(CAPP, 'doc-app');

  await deleteObject(CAPP, env.ns, 'doc-app');
  await waitGone(CAPP, 'doc-app');
  t.false(env.sim.state.apps.has(appId), 'the app is deleted');
  noRejections(t);
});
