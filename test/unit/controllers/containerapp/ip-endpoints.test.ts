/**
 * ContainerApp endpoints besides CDN (issue 48): Anycast endpoints are created, changed and
 * exported through the documented request (`anycast: {type, portMappings}`); an InternalIP
 * endpoint (the platform's `publicIp` type, which the documented request cannot create) shows
 * in status and export and is kept by a spec that names it. Before, the spec had no anycast
 * block, cdn-sim refused one, and a live non-CDN endpoint was read as a CDN one.
 *
 * ContainerAppExternal against an in-process cdn-sim in strict mode: every request is checked
 * against the official Magic Containers document (none may be rejected), and the application
 * read back is checked against the document's response model.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import { compareApp, isUpToDate } from '../../../../src/controllers/containerapp/diff.js';
import { exportContainerApp } from '../../../../src/controllers/containerapp/export.js';
import { ContainerAppExternal } from '../../../../src/controllers/containerapp/external.js';
import { NO_REFS, toDesiredApp } from '../../../../src/controllers/containerapp/mapping.js';
import { specFromApp } from '../../../../src/controllers/containerapp/reverse-mapping.js';
import type {
  ContainerAppSpec,
  ContainerAppStatus,
  EndpointStatus,
} from '../../../../src/controllers/containerapp/types.js';
import { NameAllocator } from '../../../../src/controllers/shared/export-names.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import type { JsonObject } from '../../../../src/simulator/types.js';
import { validateResponse } from '../../../support/openapi.js';
import { appObjectOf, baseSpec, externalCtxOf } from './fixtures.js';

const API_KEY = 'ip-endpoints-key';
let sim: SimulatorHandle;
let client: CdnClient;
let ext: ContainerAppExternal;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
  ext = new ContainerAppExternal(client, () => Promise.resolve(NO_REFS));
});

test.after.always(async () => {
  await sim?.close();
});

test.afterEach((t) => {
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0, 'nothing rejected by the documents');
});

/** The base spec under `name` with the web container's endpoints replaced by `endpoints`. */
function specWith(
  name: string,
  endpoints: ContainerAppSpec['containerTemplates'][0]['endpoints'],
): ContainerAppSpec {
  const spec = baseSpec();
  spec.name = name;
  spec.containerTemplates[0]!.endpoints = endpoints;
  return spec;
}

const GAME = {
  displayName: 'game',
  anycast: { portMappings: [{ containerPort: 7777, protocols: ['UDP' as const] }] },
};

/** Creates the app, then observes and updates until up to date; returns its id and status. */
async function converge(
  spec: ContainerAppSpec,
  start?: { appId: string; status: ContainerAppStatus },
): Promise<{ appId: string; status: ContainerAppStatus; writes: number }> {
  let writes = 0;
  let appId = start?.appId;
  const status: ContainerAppStatus = { ...start?.status };
  if (!appId) {
    const created = await ext.create(appObjectOf(spec, undefined, 'ip'), externalCtxOf());
    appId = created.externalId;
    Object.assign(status, created.status);
    writes++;
  }
  for (let pass = 0; pass < 3; pass++) {
    const obs = await ext.observe(appObjectOf(spec, status, 'ip'), externalCtxOf(appId));
    Object.assign(status, obs.status);
    if (obs.upToDate) return { appId, status, writes };
    const res = await ext.update(appObjectOf(spec, status, 'ip'), obs, externalCtxOf(appId));
    if (res?.status) Object.assign(status, res.status);
    writes++;
  }
  throw new Error(`cannot converge ${spec.name}: still not up to date after 3 passes`);
}

function endpointOf(status: ContainerAppStatus, name: string): EndpointStatus | undefined {
  return status.containers
    ?.find((c) => c.name === 'web')
    ?.endpoints.find((e) => e.displayName === name);
}

/** `GET /mc/apps/{appId}` as cdn-sim answers it, checked against the document. */
async function readDocumented(t: import('ava').ExecutionContext, appId: string): Promise<unknown> {
  const res = await fetch(`${sim.url}/mc/apps/${appId}`, { headers: { AccessKey: API_KEY } });
  const body: unknown = await res.json();
  t.deepEqual(validateResponse('mc', 'GET', '/mc/apps/{appId}', res.status, body), []);
  return body;
}

test.serial(
  'an Anycast endpoint is created as the document says and reported in status',
  async (t) => {
    const spec = specWith('anycast create', [
      GAME,
      { displayName: 'http', cdn: { sslEnabled: true } },
    ]);
    const { appId, status, writes } = await converge(spec);
    t.is(writes, 1, 'the create alone: the app is up to date right after it');
    const game = endpointOf(status, 'game');
    t.is(game?.type, 'Anycast');
    t.is(game?.pullZoneId, undefined, 'an anycast endpoint has no pull zone');
    t.deepEqual(game?.portMappings, [
      { containerPort: 7777, exposedPort: 7777, protocols: ['UDP'] },
    ]);
    const anycastIps = new Set(game?.publicIpAddresses?.map((a) => a.address));
    t.is(anycastIps.size, 1, 'one anycast address in every region');
    t.is(game?.publicHost, [...anycastIps][0], 'clients reach it on that address');
    t.is(endpointOf(status, 'http')?.type, 'CDN');
    t.truthy(endpointOf(status, 'http')?.pullZoneId, 'the CDN endpoint beside it keeps its zone');
    await readDocumented(t, appId);
  },
);

test.serial(
  "changing an Anycast endpoint's ports: one PATCH, the endpoint keeps its id",
  async (t) => {
    const spec = specWith('anycast ports', [GAME]);
    const first = await converge(spec);
    const id = endpointOf(first.status, 'game')?.id;
    spec.containerTemplates[0]!.endpoints = [
      {
        displayName: 'game',
        anycast: {
          portMappings: [
            { containerPort: 7777, exposedPort: 27015, protocols: ['UDP', 'TCP'] },
            { containerPort: 9000 },
          ],
        },
      },
    ];
    const second = await converge(spec, first);
    t.is(second.writes, 1);
    const game = endpointOf(second.status, 'game');
    t.is(game?.id, id, 'changed in place');
    t.deepEqual(game?.portMappings, [
      { containerPort: 7777, exposedPort: 27015, protocols: ['UDP', 'TCP'] },
      { containerPort: 9000, exposedPort: 9000, protocols: ['TCP'] },
    ]);
  },
);

test.serial('switching an endpoint between CDN and Anycast replaces it', async (t) => {
  const spec = specWith('anycast switch', [{ displayName: 'edge', cdn: { sslEnabled: true } }]);
  const first = await converge(spec);
  const cdn = endpointOf(first.status, 'edge');
  t.truthy(cdn?.pullZoneId);
  spec.containerTemplates[0]!.endpoints = [{ ...GAME, displayName: 'edge' }];
  const second = await converge(spec, first);
  t.is(second.writes, 1, 'one write replaces it');
  const anycast = endpointOf(second.status, 'edge');
  t.is(anycast?.type, 'Anycast');
  t.not(anycast?.id, cdn?.id, 'a new endpoint: the platform cannot change a type in place');
  t.false(sim.state.pullZones.has(cdn!.pullZoneId!), 'the pull zone made for the CDN one is gone');
  spec.containerTemplates[0]!.endpoints = [{ displayName: 'edge', cdn: { sslEnabled: true } }];
  const third = await converge(spec, second);
  t.is(endpointOf(third.status, 'edge')?.type, 'CDN', 'and back');
});

/** Turns the web container's endpoint `name` into an InternalIP one, as the dashboard would. */
function makeInternalIp(appId: string, name: string): void {
  const stored = sim.state.apps.get(appId)!;
  const web = (stored.app.containerTemplates as JsonObject[]).find((c) => c.name === 'web')!;
  const endpoint = (web.endpoints as JsonObject[]).find((e) => e.displayName === name)!;
  Object.assign(endpoint, {
    type: 'publicIp',
    pullZoneId: '0',
    portMappings: [{ containerPort: 5432, exposedPort: 5432, protocols: ['tcp'] }],
  });
}

test.serial(
  'export round-trips Anycast, and keeps an InternalIP endpoint by its name',
  async (t) => {
    const spec = specWith('anycast export', [GAME, { displayName: 'db' }]);
    const first = await converge(spec);
    makeInternalIp(first.appId, 'db');
    const live = await client.getApp(first.appId);
    const exported = specFromApp(live, { isSecret: () => false, secretName: '' }).spec;
    const endpoints = exported.containerTemplates[0]!.endpoints;
    t.deepEqual(endpoints, [
      {
        displayName: 'game',
        anycast: { portMappings: [{ containerPort: 7777, exposedPort: 7777, protocols: ['UDP'] }] },
      },
      { displayName: 'db' },
    ]);
    t.true(isUpToDate(compareApp(toDesiredApp(exported, NO_REFS), live, undefined)));
    const out = exportContainerApp(
      live,
      'exported',
      {
        namespace: 'default',
        kinds: new Set(['ContainerApp']),
        deletionPolicy: 'Orphan',
        account: {},
        secretEnvPattern: /^$/,
        customCertificates: 'omit',
      },
      new NameAllocator(),
    );
    t.true(
      out.notes.some((n) => n.includes('web/db (InternalIP)')),
      out.notes.join('\n'),
    );
    // A PATCH that sends the endpoint list (game's exposed port changed), then a PUT (a
    // write-only setting changed): the InternalIP endpoint stays as it is in both.
    let at = first;
    const edits: ((s: ContainerAppSpec) => void)[] = [
      (s) => {
        s.containerTemplates[0]!.endpoints![0]!.anycast!.portMappings[0]!.exposedPort = 8000;
      },
      (s) => {
        s.terminationGracePeriodSeconds = 30;
      },
    ];
    for (const edit of edits) {
      edit(exported);
      at = await converge(exported, at);
      t.is(at.writes, 1);
      const db = endpointOf(at.status, 'db');
      t.is(db?.type, 'InternalIP');
      t.is(db?.id, endpointOf(first.status, 'db')?.id);
      t.deepEqual(db?.portMappings, [
        { containerPort: 5432, exposedPort: 5432, protocols: ['TCP'] },
      ]);
    }
    t.is(endpointOf(at.status, 'game')?.portMappings?.[0]?.exposedPort, 8000);
    await readDocumented(t, first.appId);
  },
);
