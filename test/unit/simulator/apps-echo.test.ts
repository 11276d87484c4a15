/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are read loosely here; call() has already validated each against the official schema (contract exceptions applied) */
/**
 * A container app's CDN endpoint reads back what the request sent: sticky sessions and an
 * exposed port the request left out stay out of the read model, as the live API echoes the
 * request (the vendor's Terraform provider fails on "inconsistent result after apply"
 * otherwise, issue 49). A block that is sent reads back with the members the read model
 * requires filled in.
 */
import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, startTestSim } from '../../support/sim-client.js';
import { appRequest } from '../cdn/fixtures.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

type Json = Record<string, any>;

/** A one-container app whose one CDN endpoint is `cdn`. */
function appBody(name: string, cdn: Json): Json {
  const app = appRequest(name);
  const web = app.containerTemplates?.[0];
  return { ...app, containerTemplates: [{ ...web, endpoints: [{ displayName: 'cdn', cdn }] }] };
}

async function write(
  t: ExecutionContext,
  method: string,
  body: Json,
  appId?: string,
): Promise<Json> {
  const res = await call(t, sim, {
    area: 'mc',
    method,
    template: appId ? '/mc/apps/{appId}' : '/mc/apps',
    params: appId ? { appId } : {},
    body,
  });
  t.true(res.status === 200 || res.status === 201, JSON.stringify(res.body));
  const id = (res.body as { id: string }).id;
  const read = await call(t, sim, {
    area: 'mc',
    method: 'GET',
    template: '/mc/apps/{appId}',
    params: { appId: id },
  });
  return { id, endpoint: (read.body as Json).containerTemplates[0].endpoints[0] };
}

const CASES: Array<[why: string, cdn: Json, sticky: Json | undefined, port: Json]> = [
  [
    "the vendor's request: sticky sessions null, no exposed port",
    { isSslEnabled: false, stickySessions: null, portMappings: [{ containerPort: 5678 }] },
    undefined,
    { containerPort: 5678, protocols: ['tcp'] },
  ],
  [
    'neither member sent at all',
    { isSslEnabled: true, portMappings: [{ containerPort: 80 }] },
    undefined,
    { containerPort: 80, protocols: ['tcp'] },
  ],
  [
    'both sent: read back as sent, the cookie name filled in',
    {
      isSslEnabled: true,
      stickySessions: { enabled: true, sessionHeaders: ['X-User'] },
      portMappings: [{ containerPort: 80, exposedPort: 8080 }],
    },
    { enabled: true, sessionHeaders: ['X-User'], cookieName: 'bunny_sticky' },
    { containerPort: 80, exposedPort: 8080, protocols: ['tcp'] },
  ],
];

for (const [why, cdn, sticky, port] of CASES) {
  test(`create: ${why}`, async (t) => {
    const { endpoint } = await write(
      t,
      'POST',
      appBody(`echo-${CASES.findIndex((c) => c[0] === why)}`, cdn),
    );
    t.deepEqual(endpoint.stickySessions, sticky);
    t.deepEqual(endpoint.portMappings, [port]);
  });
}

test('PUT without sticky sessions drops the ones a create sent; PATCH without them keeps them', async (t) => {
  const sticky = { enabled: true, sessionHeaders: ['X-User'], cookieName: 'sid' };
  const withSticky = {
    isSslEnabled: true,
    stickySessions: sticky,
    portMappings: [{ containerPort: 80 }],
  };
  const created = await write(t, 'POST', appBody('echo-put', withSticky));
  t.deepEqual(created.endpoint.stickySessions, sticky);
  const patched = await write(
    t,
    'PATCH',
    { autoScaling: { min: 1, max: 2 } },
    created.id as string,
  );
  t.deepEqual(patched.endpoint.stickySessions, sticky, 'PATCH leaves what it does not name');
  const put = await write(
    t,
    'PUT',
    appBody('echo-put', { isSslEnabled: true, portMappings: [{ containerPort: 80 }] }),
    created.id as string,
  );
  t.is(put.endpoint.stickySessions, undefined, 'PUT replaces the whole configuration');
});
