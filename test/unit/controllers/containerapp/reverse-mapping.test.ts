/**
 * specFromApp (the export's reverse of mapping.ts): an application read from cdn-sim, exported
 * to a spec and mapped forward with its Secret values resolved, compares up to date in
 * compareApp; secret variables become Secret key references and their values are never copied.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import { compareApp, isUpToDate } from '../../../../src/controllers/containerapp/diff.js';
import { envKey, toDesiredApp } from '../../../../src/controllers/containerapp/mapping.js';
import { specFromApp } from '../../../../src/controllers/containerapp/reverse-mapping.js';
import { startSimulator } from '../../../../src/simulator/server.js';

const SECRET = 'seeded-db-password-77';

test('an application round-trips through the spec with nothing to change', async (t) => {
  const sim = await startSimulator({ apiKeys: [{ key: 'k' }] });
  const cdn = new CdnClient({ credentials: 'k', baseUrl: sim.url });
  t.teardown(async () => {
    cdn.close();
    await sim.close();
  });
  const created = await cdn.createApp({
    name: 'reverse-app',
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 3 },
    regionSettings: { allowedRegionIds: ['DE', 'NY'], requiredRegionIds: ['DE'] },
    containerTemplates: [
      {
        name: 'web',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: '1.27',
        imageRegistryId: 'dockerhub',
        imagePullPolicy: 'ifNotPresent',
        entryPoint: { command: 'nginx', arguments: '-g daemon off;' },
        environmentVariables: [
          { name: 'MODE', value: 'on' },
          { name: 'DB_PASSWORD', value: SECRET },
        ],
        probes: {
          liveness: {
            periodSeconds: 10,
            httpGet: {
              request: { path: '/healthz', portNumber: 80 },
              response: { expectedStatusCode: 'ok' },
            },
          },
        },
        endpoints: [
          {
            displayName: 'public',
            cdn: { isSslEnabled: true, portMappings: [{ containerPort: 80 }] },
          },
        ],
      },
      {
        name: 'worker',
        imageName: 'busybox',
        imageNamespace: 'library',
        imageTag: 'latest',
        imageRegistryId: 'dockerhub',
        environmentVariables: [{ name: 'DB_PASSWORD', value: SECRET }],
      },
    ],
    volumes: [],
  } as never);
  const app = await cdn.getApp(created.id);
  const { spec, secretKeys } = specFromApp(app, {
    isSecret: (_c, v) => v === 'DB_PASSWORD',
    secretName: 'reverse-app-env',
  });
  t.false(JSON.stringify(spec).includes(SECRET), 'no secret value in the spec');
  t.deepEqual(secretKeys, ['DB_PASSWORD', 'worker.DB_PASSWORD']);
  t.deepEqual(spec.containerTemplates[0]?.environmentVariables?.[1], {
    name: 'DB_PASSWORD',
    valueFrom: { secretKeyRef: { name: 'reverse-app-env', key: 'DB_PASSWORD' } },
  });
  t.is(spec.containerTemplates[0]?.imagePullPolicy, 'IfNotPresent');
  const liveness = spec.containerTemplates[0]?.probes?.liveness;
  t.is(liveness?.httpGet?.response?.expectedStatusCode, 200, "the platform's ok as its code");
  // The platform's default sticky sessions have no headers, which the CRD refuses: left out.
  t.deepEqual(spec.containerTemplates[0]?.endpoints?.[0], {
    displayName: 'public',
    cdn: {
      sslEnabled: true,
      pullZoneId: spec.containerTemplates[0]?.endpoints?.[0]?.cdn?.pullZoneId,
      portMappings: [{ containerPort: 80, protocols: ['TCP'] }],
    },
  });
  const refs = {
    env: new Map([
      [envKey('web', 'DB_PASSWORD'), SECRET],
      [envKey('worker', 'DB_PASSWORD'), SECRET],
    ]),
    secretEnv: new Set([envKey('web', 'DB_PASSWORD'), envKey('worker', 'DB_PASSWORD')]),
    pullZones: new Map<string, number>(),
  };
  const cmp = compareApp(toDesiredApp(spec, refs), app, undefined);
  t.true(isUpToDate(cmp), JSON.stringify(cmp));
  // The comparison is not vacuous: a changed tag is seen.
  const changed = structuredClone(spec);
  changed.containerTemplates[0]!.imageTag = '1.28';
  t.false(isUpToDate(compareApp(toDesiredApp(changed, refs), app, undefined)));
});
