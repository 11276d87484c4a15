/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are read loosely here; call() has already validated each against the official schema */
/**
 * The live API binds request bodies the way ASP.NET does: member names and string enum names
 * match regardless of case, unknown members are ignored, and `null` for an optional member is
 * accepted. cdn-sim binds the same way in strict and --no-strict mode (issue 30, item 1); the
 * bodies below are written the way the platform vendor's own client writes them.
 */
import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, createPullZone, startTestSim, type CallResult } from '../../support/sim-client.js';

type Json = Record<string, any>;

const MODES: Array<[string, boolean]> = [
  ['strict', true],
  ['--no-strict', false],
];

let strictSim: SimulatorHandle;
let looseSim: SimulatorHandle;
test.before(async () => {
  strictSim = await startTestSim();
  looseSim = await startTestSim({ strict: false });
});
test.after.always(async () => {
  await strictSim.close();
  await looseSim.close();
});

function simOf(strict: boolean): SimulatorHandle {
  return strict ? strictSim : looseSim;
}

async function readZone(t: ExecutionContext, sim: SimulatorHandle, id: number): Promise<Json> {
  const res = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id },
  });
  t.is(res.status, 200);
  return res.body as Json;
}

function addZone(t: ExecutionContext, sim: SimulatorHandle, body: Json): Promise<CallResult> {
  return call(t, sim, { area: 'core', method: 'POST', template: '/pullzone', body });
}

for (const [mode, strict] of MODES) {
  test(`${mode}: POST /pullzone with EnableWebPVary (the issue's repro) is 201 and reads back`, async (t) => {
    const sim = simOf(strict);
    const res = await addZone(t, sim, {
      Name: `r1-${mode.replace(/\W/g, '')}`,
      OriginUrl: 'https://o.example.com',
      EnableWebPVary: true,
    });
    t.is(res.status, 201, JSON.stringify(res.body));
    const zone = await readZone(t, sim, (res.body as Json).Id as number);
    t.is(zone.EnableWebPVary, true);
    t.is(zone.OriginUrl, 'https://o.example.com');
  });

  test(`${mode}: member names bind regardless of case (ZoneSecurityIncludeHashRemoteIp, originUrl)`, async (t) => {
    const sim = simOf(strict);
    const res = await addZone(t, sim, {
      name: `case-${mode.replace(/\W/g, '')}`,
      originUrl: 'https://case.example.com',
      ZoneSecurityIncludeHashRemoteIp: true,
      ZONESECURITYENABLED: true,
      cacheControlMaxAgeOverride: 600,
    });
    t.is(res.status, 201, JSON.stringify(res.body));
    t.like(res.body, {
      OriginUrl: 'https://case.example.com',
      ZoneSecurityIncludeHashRemoteIP: true,
      ZoneSecurityEnabled: true,
      CacheControlMaxAgeOverride: 600,
    });
  });

  test(`${mode}: update ignores read-model members sent back (ZoneSecurityKey, Edgerules, Hostnames, Id, Name)`, async (t) => {
    const sim = simOf(strict);
    const id = await createPullZone(t, sim, `readback-${mode.replace(/\W/g, '')}`);
    const before = await readZone(t, sim, id);
    // A client that read the zone, changed one setting and sends the whole record back, with
    // its own spelling of a few members.
    const body = {
      ...before,
      Id: 424242,
      Name: 'renamed-by-mistake',
      ZoneSecurityKey: 'not-the-key',
      Edgerules: [],
      Hostnames: [],
      CacheControlMaxAgeOverride: 3600,
    };
    const res = await call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone/{id}',
      params: { id },
      body,
    });
    t.is(res.status, 200, JSON.stringify(res.body));
    const after = await readZone(t, sim, id);
    t.is(after.CacheControlMaxAgeOverride, 3600);
    t.is(after.Id, id, 'Id is not a member of the update model');
    t.is(after.Name, before.Name, 'Name is not a member of the update model');
    t.is(after.ZoneSecurityKey, before.ZoneSecurityKey, 'the key is not writable');
    t.deepEqual(after.Hostnames, before.Hostnames, 'Hostnames is not writable');
  });

  test(`${mode}: null for an optional member the document does not declare nullable is accepted`, async (t) => {
    const sim = simOf(strict);
    const res = await addZone(t, sim, {
      Name: `nulls-${mode.replace(/\W/g, '')}`,
      OriginUrl: 'https://nulls.example.com',
      PreloadingScreenShowOnFirstVisit: null,
    });
    t.is(res.status, 201, JSON.stringify(res.body));
  });
}

/** A container app body written the way the vendor's client writes one. */
function vendorApp(name: string, pullZoneId?: number): Json {
  return {
    name,
    runtimeType: 'Shared',
    autoScaling: { min: 1, max: 1 },
    regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: null, maxAllowedRegions: null },
    containerTemplates: [
      {
        name: 'web',
        packageId: '',
        imageNamespace: 'library',
        imageName: 'nginx',
        imageTag: '1.27',
        imageRegistryId: 'reg-1',
        imagePullPolicy: 'Always',
        entryPoint: { command: '', arguments: '', workingDirectory: '' },
        probes: { startup: null, readiness: null, liveness: null },
        endpoints: [
          {
            displayName: 'http',
            cdn: {
              isSslEnabled: true,
              stickySessions: null,
              portMappings: [{ containerPort: 80 }],
              ...(pullZoneId === undefined ? {} : { pullZoneId }),
            },
          },
        ],
        environmentVariables: null,
      },
    ],
  };
}

for (const [mode, strict] of MODES) {
  test(`${mode}: /mc/apps as the vendor client writes it: Shared, Always, packageId, nulls, id on PUT`, async (t) => {
    const sim = simOf(strict);
    const created = await call(t, sim, {
      area: 'mc',
      method: 'POST',
      template: '/mc/apps',
      body: vendorApp(`vendor ${mode.replace(/\W/g, '')}`),
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const appId = (created.body as Json).id as string;
    const read = await call(t, sim, {
      area: 'mc',
      method: 'GET',
      template: '/mc/apps/{appId}',
      params: { appId },
    });
    const app = read.body as Json;
    t.is(app.runtimeType, 'shared');
    t.is(app.containerTemplates[0].imagePullPolicy, 'always');
    t.not(app.containerTemplates[0].packageId, '', 'packageId is the service-made one');
    const replaced = await call(t, sim, {
      area: 'mc',
      method: 'PUT',
      template: '/mc/apps/{appId}',
      params: { appId },
      body: {
        id: appId,
        ...vendorApp(`vendor ${mode.replace(/\W/g, '')}`),
        runtimeType: 'SHARED',
        autoScaling: { min: 1, max: 2 },
      },
    });
    t.is(replaced.status, 200, JSON.stringify(replaced.body));
    t.is((replaced.body as Json).id, appId);
  });

  test(`${mode}: shield create and update with dDoSExecutionMode (written, as live clients do) and nulls`, async (t) => {
    const sim = simOf(strict);
    const pullZoneId = await createPullZone(t, sim, `shield-bind-${mode.replace(/\W/g, '')}`);
    const shieldZone = {
      planType: 0,
      dDoSShieldSensitivity: 1,
      dDoSExecutionMode: 0,
      dDoSChallengeWindow: 3600,
      wafEnabled: true,
      wafExecutionMode: 0,
      wafRequestIgnoredHeaders: null,
      wafDisabledRules: null,
      learningMode: false,
    };
    const created = await call(t, sim, {
      area: 'shield',
      method: 'POST',
      template: '/shield/shield-zone',
      body: { pullZoneId, shieldZone },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const shieldZoneId = (created.body as Json).data.shieldZone.shieldZoneId as number;
    const updated = await call(t, sim, {
      area: 'shield',
      method: 'PATCH',
      template: '/shield/shield-zone',
      body: { shieldZoneId, shieldZone: { ...shieldZone, dDoSShieldSensitivity: 3 } },
    });
    t.is(updated.status, 200, JSON.stringify(updated.body));
  });
}

test('binding does not hide real problems: a wrong type or an out-of-range value is still 400', async (t) => {
  const id = await createPullZone(t, strictSim, 'bind-still-checks');
  const cases: Array<[Json, string]> = [
    [{ optimizerImageQuality: 500 }, 'OptimizerImageQuality'],
    [{ enableWebPVary: 'yes' }, 'EnableWebpVary'],
  ];
  for (const [body, field] of cases) {
    const res = await call(t, strictSim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone/{id}',
      params: { id },
      body,
    });
    t.is(res.status, 400, field);
    t.like(res.body, { Field: field }, 'the error names the member as the document spells it');
  }
  const app = vendorApp('bad enum');
  app.containerTemplates[0].imagePullPolicy = 'Sometimes';
  const res = await call(t, strictSim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/apps',
    body: app,
  });
  t.is(res.status, 400, 'an enum name that matches no documented value in any case');
});
