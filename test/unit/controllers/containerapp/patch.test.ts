import test from 'ava';
import type { App, AppPatch } from '../../../../src/cdn/types.js';
import { compareApp, isUpToDate } from '../../../../src/controllers/containerapp/diff.js';
import {
  buildPatch,
  buildReplaceBody,
  needsReplace,
  needsVolumeIds,
} from '../../../../src/controllers/containerapp/patch.js';
import type {
  ContainerAppSpec,
  WriteOnlyRecord,
} from '../../../../src/controllers/containerapp/types.js';
import { validateRequest } from '../../../support/openapi.js';
import { baseSpec, desiredOf, liveOf } from './fixtures.js';

/** What `GET /mc/apps/{appId}/volumes` lists for the fixture (the app read has no ids). */
const VOLUME_IDS = new Map([['data', 'v-data']]);

/** Complete documented container items (PATCH reuses the full ContainerRequest). */
const WEB = {
  id: 'c-web',
  name: 'web',
  imageName: 'nginx',
  imageNamespace: 'library',
  imageTag: '1.25',
  imageRegistryId: 'dockerhub',
  environmentVariables: [{ name: 'MODE', value: 'prod' }],
  volumeMounts: [{ name: 'data', mountPath: '/data' }],
};
const WORKER = {
  id: 'c-worker',
  name: 'worker',
  imageName: 'busybox',
  imageNamespace: 'library',
  imageTag: '1.36',
  imageRegistryId: 'dockerhub',
  environmentVariables: [],
  volumeMounts: [],
};
const HTTP = {
  id: 'e-web-http',
  displayName: 'http',
  cdn: { isSslEnabled: true, portMappings: [{ containerPort: 80 }] },
};

interface Case {
  name: string;
  reason: string;
  /** Edits the spec after the live app was built from the base spec. */
  spec?: (s: ContainerAppSpec) => void;
  /** Edits the live app (drift, items unknown to the spec). */
  live?: (l: App) => void;
  recorded?: WriteOnlyRecord;
  /** Items of a PATCH carry only what changes, so they are looser than the create types. */
  expected: Record<string, unknown> | undefined;
}

const web = (s: ContainerAppSpec): ContainerAppSpec['containerTemplates'][number] =>
  s.containerTemplates[0]!;

const cases: Case[] = [
  {
    name: 'nothing changed',
    reason: 'identical desired and live state must not produce a write',
    expected: undefined,
  },
  {
    name: 'image change only',
    reason: 'only the changed field of the changed container; the other container is kept by id',
    spec: (s) => {
      web(s).imageTag = '1.27';
    },
    expected: {
      containerTemplates: [{ ...WEB, imageTag: '1.27' }, WORKER],
    },
  },
  {
    name: 'add container',
    reason: 'existing containers are listed with their ids, the new one without an id',
    spec: (s) => {
      s.containerTemplates.push({
        name: 'cron',
        imageName: 'alpine',
        imageNamespace: 'library',
        imageTag: '3',
        imageRegistryId: 'dockerhub',
      });
    },
    expected: {
      containerTemplates: [
        WEB,
        WORKER,
        {
          name: 'cron',
          imageName: 'alpine',
          imageNamespace: 'library',
          imageTag: '3',
          imageRegistryId: 'dockerhub',
          environmentVariables: [],
          endpoints: [],
          volumeMounts: [],
        },
      ],
    },
  },
  {
    name: 'remove container',
    reason: 'a container removed from the spec is left out of the array, which deletes it',
    spec: (s) => {
      s.containerTemplates.splice(1, 1);
    },
    expected: { containerTemplates: [WEB] },
  },
  {
    name: 'add volume',
    reason: 'the volumes array is sent with the existing volume (by id) and the new one',
    spec: (s) => {
      s.volumes!.push({ name: 'cache', sizeGigabytes: 2 });
    },
    expected: {
      volumes: [
        { id: 'v-data', name: 'data', size: 5 },
        { name: 'cache', size: 2 },
      ],
    },
  },
  {
    name: 'remove volume',
    reason: 'an empty volumes array deletes the only volume; containers are not sent',
    spec: (s) => {
      s.volumes = [];
    },
    expected: { volumes: [] },
  },
  {
    name: 'resize volume',
    reason: 'a changed size is sent with the volume id',
    spec: (s) => {
      s.volumes![0]!.sizeGigabytes = 10;
    },
    expected: { volumes: [{ id: 'v-data', name: 'data', size: 10 }] },
  },
  {
    name: 'add endpoint',
    reason: 'the kept endpoint by id, the new endpoint without id, inside the container item',
    spec: (s) => {
      web(s).endpoints!.push({
        displayName: 'admin',
        cdn: { portMappings: [{ containerPort: 81 }] },
      });
    },
    expected: {
      containerTemplates: [
        {
          ...WEB,
          endpoints: [
            HTTP,
            { displayName: 'admin', cdn: { portMappings: [{ containerPort: 81 }] } },
          ],
        },
        WORKER,
      ],
    },
  },
  {
    name: 'remove endpoint',
    reason: 'an endpoint removed from the spec is left out of its container endpoints array',
    spec: (s) => {
      web(s).endpoints = [];
    },
    expected: {
      containerTemplates: [{ ...WEB, endpoints: [] }, WORKER],
    },
  },
  {
    name: 'change endpoint',
    reason: 'a changed endpoint is sent with its id and the desired fields',
    spec: (s) => {
      web(s).endpoints![0]!.cdn!.sslEnabled = false;
    },
    expected: {
      containerTemplates: [
        {
          ...WEB,
          endpoints: [{ ...HTTP, cdn: { ...HTTP.cdn, isSslEnabled: false } }],
        },
        WORKER,
      ],
    },
  },
  {
    name: 'live container unknown to the spec',
    reason:
      'the spec is the truth for managed arrays: a live container the spec does not name is removed',
    live: (l) => {
      l.containerTemplates.push({ ...l.containerTemplates[1]!, id: 'c-stray', name: 'stray' });
    },
    expected: { containerTemplates: [WEB, WORKER] },
  },
  {
    name: 'live volume unknown to the spec',
    reason: 'same rule for volumes: it is left out, every spec volume is kept by id',
    live: (l) => {
      l.volumes.push({ name: 'old', size: 1 });
    },
    expected: { volumes: [{ id: 'v-data', name: 'data', size: 5 }] },
  },
  {
    name: 'autoscaling change only',
    reason: 'arrays whose items did not change are not sent at all, so nothing can be dropped',
    spec: (s) => {
      s.autoScaling = { min: 2, max: 4 };
    },
    expected: { autoScaling: { min: 2, max: 4 } },
  },
  {
    name: 'environment variable change',
    reason: 'the variable list has no ids: it is sent whole for the changed container only',
    spec: (s) => {
      web(s).environmentVariables = [
        { name: 'MODE', value: 'dev' },
        { name: 'EXTRA', value: '1' },
      ];
    },
    expected: {
      containerTemplates: [
        {
          ...WEB,
          environmentVariables: [
            { name: 'MODE', value: 'dev' },
            { name: 'EXTRA', value: '1' },
          ],
        },
        WORKER,
      ],
    },
  },
  {
    name: 'region ids reordered by the platform',
    reason: 'region id lists compare as sets',
    live: (l) => {
      l.regionSettings.allowedRegionIds = ['UK', 'DE'];
    },
    expected: undefined,
  },
  {
    name: 'region ids changed',
    reason: 'only the changed region field is sent (merge patch of the object)',
    spec: (s) => {
      s.regionSettings!.allowedRegionIds = ['DE', 'UK', 'US'];
    },
    expected: { regionSettings: { allowedRegionIds: ['DE', 'UK', 'US'] } },
  },
  {
    name: 'probe with platform defaults',
    reason: 'fields the spec leaves out of a probe are the platform defaults, not drift',
    spec: (s) => {
      web(s).probes = { readiness: { httpGet: { request: { path: '/', portNumber: 80 } } } };
    },
    live: (l) => {
      l.containerTemplates[0]!.probes = {
        readiness: {
          initialDelaySeconds: 10,
          periodSeconds: 10,
          timeoutSeconds: 7,
          failureThreshold: 3,
          successThreshold: 1,
          httpGet: { request: { path: '/', portNumber: 80 } },
        },
      };
    },
    expected: undefined,
  },
  {
    name: 'node selectors never applied',
    reason: 'write-only: compared with the record of what was applied, absent here',
    spec: (s) => {
      s.regionSettings!.nodeSelectors = { tier: 'edge' };
    },
    expected: { regionSettings: { nodeSelectors: { tier: 'edge' } } },
  },
  {
    name: 'node selectors already applied',
    reason: 'the record matches the spec: no write',
    spec: (s) => {
      s.regionSettings!.nodeSelectors = { tier: 'edge' };
    },
    recorded: { nodeSelectors: { tier: 'edge' } },
    expected: undefined,
  },
  {
    name: 'pull zone assigned by the platform',
    reason: 'an endpoint without a pull zone in the spec leaves the platform-created zone alone',
    live: (l) => {
      l.containerTemplates[0]!.endpoints[0]!.pullZoneId = '4242';
    },
    expected: undefined,
  },
  {
    name: 'rename app',
    reason: 'a top-level scalar is sent alone',
    spec: (s) => {
      s.name = 'renamed';
    },
    expected: { name: 'renamed' },
  },
];

function droppedContainer(patch: AppPatch, spec: ContainerAppSpec, live: App): string | undefined {
  if (!patch.containerTemplates) return undefined;
  const sent = new Map(patch.containerTemplates.map((c) => [c.id, c]));
  for (const c of live.containerTemplates) {
    const specC = spec.containerTemplates.find((x) => x.name === c.name);
    if (!specC) continue;
    const item = sent.get(c.id);
    if (!item) return `container ${c.name} dropped`;
    if (!item.endpoints) continue;
    const eps = new Set(item.endpoints.map((e) => e.id));
    const lost = c.endpoints.find(
      (e) => specC.endpoints?.some((x) => x.displayName === e.displayName) && !eps.has(e.id),
    );
    if (lost) return `endpoint ${lost.displayName} dropped`;
  }
  return undefined;
}

function droppedVolume(patch: AppPatch, spec: ContainerAppSpec, live: App): string | undefined {
  if (!patch.volumes) return undefined;
  const sent = new Set(patch.volumes.map((v) => v.id));
  const lost = live.volumes.find(
    (v) => spec.volumes?.some((x) => x.name === v.name) && !sent.has(VOLUME_IDS.get(v.name)),
  );
  return lost && `volume ${lost.name} dropped`;
}

/** Every sent array keeps, by id, each live item the spec still names. */
function assertNothingDroppedByAccident(
  patch: AppPatch | undefined,
  spec: ContainerAppSpec,
  live: App,
): string | undefined {
  if (!patch) return undefined;
  return droppedContainer(patch, spec, live) ?? droppedVolume(patch, spec, live);
}

for (const c of cases) {
  test(`buildPatch: ${c.name} (${c.reason})`, (t) => {
    const live = liveOf(desiredOf(baseSpec()));
    c.live?.(live);
    const spec = baseSpec();
    c.spec?.(spec);
    const desired = desiredOf(spec);
    const cmp = compareApp(desired, live, c.recorded);
    const patch = buildPatch(desired, cmp, VOLUME_IDS);
    t.deepEqual(patch, c.expected);
    if (patch) {
      t.deepEqual(
        validateRequest('mc', 'PATCH', '/mc/apps/{appId}', patch),
        [],
        'the documented PATCH model (with the contract ids) accepts the body',
      );
    }
    t.is(isUpToDate(cmp), c.expected === undefined);
    t.false(needsReplace(cmp), 'none of these cases needs a PUT');
    t.is(assertNothingDroppedByAccident(patch, spec, live), undefined);
  });
}

test('buildPatch refuses to send volumes when the volume list has no id for a kept volume', (t) => {
  // Without an id the volume could only be sent as new, which would replace it (data loss).
  const live = liveOf(desiredOf(baseSpec()));
  const spec = baseSpec();
  spec.volumes!.push({ name: 'cache', sizeGigabytes: 1 });
  const desired = desiredOf(spec);
  const cmp = compareApp(desired, live, undefined);
  t.true(needsVolumeIds(cmp));
  const err = t.throws(() => buildPatch(desired, cmp, new Map()));
  t.regex(err.message, /volume "data" without an id/);
  t.false(needsVolumeIds(compareApp(desiredOf(baseSpec()), live, undefined)));
});

test('probe expectedStatusCode is sent as the documented status name (200 -> ok)', (t) => {
  const live = liveOf(desiredOf(baseSpec()));
  const spec = baseSpec();
  web(spec).probes = {
    readiness: {
      httpGet: { request: { path: '/', portNumber: 80 }, response: { expectedStatusCode: 200 } },
    },
    liveness: { httpGet: { response: { expectedStatusCode: 404 } } },
    startup: { httpGet: { response: { expectedStatusCode: 204 } } },
  };
  const desired = desiredOf(spec);
  const patch = buildPatch(desired, compareApp(desired, live, undefined), VOLUME_IDS)!;
  const probes = patch.containerTemplates![0]!.probes!;
  t.deepEqual(
    [probes.readiness, probes.liveness, probes.startup].map(
      (p) => p?.httpGet?.response?.expectedStatusCode,
    ),
    ['ok', 'notFound', 'noContent'],
  );
  t.deepEqual(validateRequest('mc', 'PATCH', '/mc/apps/{appId}', patch), []);
  live.containerTemplates[0]!.probes = structuredClone(desired.containerTemplates[0]!.probes)!;
  t.true(isUpToDate(compareApp(desired, live, undefined)), 'the name read back matches');
});

test('needsReplace: terminationGracePeriodSeconds change needs PUT (PATCH cannot carry it)', (t) => {
  const spec = baseSpec();
  spec.terminationGracePeriodSeconds = 45;
  const desired = desiredOf(spec);
  const live = liveOf(desiredOf(baseSpec()));
  t.true(needsReplace(compareApp(desired, live, { terminationGracePeriodSeconds: 30 })));
  t.false(needsReplace(compareApp(desired, live, { terminationGracePeriodSeconds: 45 })));
});

test('needsReplace: repositorySettings change needs PUT', (t) => {
  const spec = baseSpec();
  spec.repositorySettings = { owner: 'acme' };
  const live = liveOf(desiredOf(baseSpec()));
  t.true(needsReplace(compareApp(desiredOf(spec), live, undefined)));
});

test('buildReplaceBody keeps container ids, live values of unmanaged fields, and drops removed items', (t) => {
  const live = liveOf(desiredOf(baseSpec()));
  live.containerTemplates[0]!.entryPoint = { command: '/start' };
  live.regionSettings.maxAllowedRegions = 4;
  const spec = baseSpec();
  spec.terminationGracePeriodSeconds = 60;
  spec.containerTemplates.splice(1, 1);
  const desired = desiredOf(spec);
  const cmp = compareApp(desired, live, { nodeSelectors: { tier: 'edge' } });
  const body = buildReplaceBody(desired, cmp, live, { nodeSelectors: { tier: 'edge' } });
  t.is(body.terminationGracePeriodSeconds, 60);
  t.is(body.runtimeType, 'shared');
  t.deepEqual(body.regionSettings, {
    allowedRegionIds: ['DE', 'UK'],
    requiredRegionIds: ['DE'],
    maxAllowedRegions: 4,
    nodeSelectors: { tier: 'edge' },
  });
  t.is(body.containerTemplates!.length, 1);
  const c = body.containerTemplates![0]!;
  t.is(c.id, 'c-web');
  t.deepEqual(c.entryPoint, { command: '/start' }, 'unmanaged live value kept');
  t.is((c.endpoints![0] as { id?: string }).id, undefined, 'the documented endpoint has no id');
  t.is(c.endpoints![0]!.displayName, 'http');
  t.is(c.endpoints![0]!.cdn?.pullZoneId, 1000, 'the endpoint keeps its pull zone');
  t.deepEqual(body.volumes, [{ name: 'data', size: 5 }], 'volumes are named, not numbered');
  t.deepEqual(validateRequest('mc', 'PUT', '/mc/apps/{appId}', body), []);
});
