/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- response bodies are read loosely here; call() has already validated each against the official schema */
import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, startTestSim } from '../../support/sim-client.js';
import { minimalAppRequest } from '../cdn/fixtures.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

const PASSWORD = 'ghp_registry-password-0123456789';

async function addRegistry(
  t: ExecutionContext,
  name: string,
  password = PASSWORD,
): Promise<number> {
  const res = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/registries',
    body: { displayName: name, type: 'gitHub', passwordCredentials: { userName: 'bot', password } },
  });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.like(res.body, { status: 'saved', error: null });
  return (res.body as any).id as number;
}

function bodyText(value: unknown): string {
  return JSON.stringify(value);
}

test('registry: add, read without the password, rotate with PUT, delete', async (t) => {
  const id = await addRegistry(t, 'team-ghcr');
  const read = await call(t, sim, {
    area: 'mc',
    method: 'GET',
    template: '/mc/registries/{registryId}',
    params: { registryId: id },
  });
  t.like(read.body, {
    id,
    displayName: 'team-ghcr',
    hostName: 'ghcr.io',
    userName: 'bot',
    isPlatformManaged: false,
    firstPasswordSymbols: 'ghp',
    lastPasswordSymbols: '789',
  });
  t.false(bodyText(read.body).includes(PASSWORD), 'the password is write-only');
  const digest = (): unknown =>
    sim.state.collections.of('registries').get(String(id))?.passwordDigest;
  const before = digest();
  const renamed = await call(t, sim, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/registries/{registryId}',
    params: { registryId: id },
    body: { displayName: 'renamed', type: 'gitHub' },
  });
  t.is(renamed.status, 200);
  t.is(digest(), before, 'a PUT without credentials keeps them');
  await call(t, sim, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/registries/{registryId}',
    params: { registryId: id },
    body: {
      displayName: 'renamed',
      type: 'gitHub',
      passwordCredentials: { userName: 'bot', password: 'rotated-password-xyz' },
    },
  });
  t.not(digest(), before, 'a PUT with credentials rotates them');
  const list = await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/registries' });
  t.true((list.body as any).items.some((r: any) => r.id === id && r.displayName === 'renamed'));
  t.false(bodyText(list.body).includes('rotated-password-xyz'));
  const removed = await call(t, sim, {
    area: 'mc',
    method: 'DELETE',
    template: '/mc/registries/{registryId}',
    params: { registryId: id },
  });
  t.like(removed.body, { status: 'removed' });
  const again = await call(t, sim, {
    area: 'mc',
    method: 'DELETE',
    template: '/mc/registries/{registryId}',
    params: { registryId: id },
  });
  t.like(again.body, { status: 'notFound' });
  const missing = await call(t, sim, {
    area: 'mc',
    method: 'GET',
    template: '/mc/registries/{registryId}',
    params: { registryId: id },
  });
  t.is(missing.status, 404);
});

test('platform-managed public registries are listed and cannot be changed or deleted', async (t) => {
  const list = await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/registries' });
  const managed = (list.body as any).items.filter((r: any) => r.isPlatformManaged);
  t.deepEqual(
    managed.map((r: any) => r.displayName),
    ['DockerHub Public', 'GitHub Public'],
  );
  const del = await call(t, sim, {
    area: 'mc',
    method: 'DELETE',
    template: '/mc/registries/{registryId}',
    params: { registryId: managed[0].id },
  });
  t.is(del.status, 409);
  const put = await call(t, sim, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/registries/{registryId}',
    params: { registryId: managed[0].id },
    body: { displayName: 'mine' },
  });
  t.is(put.status, 400);
});

test('a registry an application pulls from cannot be deleted (409 names the application)', async (t) => {
  const id = await addRegistry(t, 'in-use');
  const app = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/apps',
    body: minimalAppRequest('uses-registry', String(id)),
  });
  t.is(app.status, 201);
  const del = await call(t, sim, {
    area: 'mc',
    method: 'DELETE',
    template: '/mc/registries/{registryId}',
    params: { registryId: id },
  });
  t.is(del.status, 409);
  t.regex((del.body as any).detail, new RegExp((app.body as any).id));
});

const invalidRegistries: Array<{ reason: string; body: unknown; field: string }> = [
  {
    reason: 'no display name',
    body: { passwordCredentials: { userName: 'u', password: 'p' } },
    field: 'displayName',
  },
  {
    reason: 'a display name over 50 characters',
    body: { displayName: 'x'.repeat(51), passwordCredentials: { userName: 'u', password: 'p' } },
    field: 'displayName',
  },
  {
    reason: 'an empty password',
    body: { displayName: 'n', passwordCredentials: { userName: 'u', password: '' } },
    field: 'passwordCredentials.password',
  },
];

for (const c of invalidRegistries) {
  test(`registry add refused with 400 ErrorDetails: ${c.reason}`, async (t) => {
    const res = await call(t, sim, {
      area: 'mc',
      method: 'POST',
      template: '/mc/registries',
      body: c.body,
    });
    t.is(res.status, 400);
    t.true(
      (res.body as any).errors.some((e: any) => e.field === c.field),
      JSON.stringify(res.body),
    );
  });
}

async function createApp(t: ExecutionContext, name: string): Promise<string> {
  const res = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/apps',
    body: minimalAppRequest(name),
  });
  return (res.body as any).id as string;
}

test('log forwarding: create (201, token read back as documented), replace, delete; goes with its app', async (t) => {
  const appId = await createApp(t, 'logs');
  const token = 'syslog-token-secret-value';
  const body = {
    app: appId,
    type: 'SyslogTcp',
    endpoint: 'logs.example.com',
    port: 6514,
    token,
    format: 'SyslogRfc5424',
    enabled: true,
  };
  const created = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/log/forwarding',
    body,
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.like(created.body, { app: appId, endpoint: 'logs.example.com', port: 6514, enabled: true });
  // The document's read model (LogForwardingConfiguration) carries the token: the client drops it.
  t.is((created.body as any).token, token);
  const dup = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/log/forwarding',
    body,
  });
  t.is(dup.status, 400, 'one configuration per application');
  const { token: _t, ...withoutToken } = body;
  const replaced = await call(t, sim, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/log/forwarding/{appId}',
    params: { appId },
    body: { ...withoutToken, port: 514, type: 'SyslogUdp' },
  });
  t.like(replaced.body, { port: 514, type: 'SyslogUdp' });
  t.is(
    sim.state.collections.of('logForwarding').get(appId)?.token,
    token,
    'a PUT without token keeps it',
  );
  const list = await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/log/forwarding' });
  const listed = (list.body as any).items.find((i: any) => i.app === appId);
  t.is(listed.token, token, 'a PUT without token keeps it, and reads show it');
  t.false('appId' in listed, 'no simulator bookkeeping in the read model');
  await call(t, sim, {
    area: 'mc',
    method: 'DELETE',
    template: '/mc/apps/{appId}',
    params: { appId },
  });
  const gone = await call(t, sim, {
    area: 'mc',
    method: 'GET',
    template: '/mc/log/forwarding/{appId}',
    params: { appId },
  });
  t.is(gone.status, 404);
});

test('log forwarding refuses a bad port, an unknown app and a mismatched PUT', async (t) => {
  const lenient = await startTestSim({ strict: false });
  t.teardown(() => lenient.close());
  const base = {
    type: 'SyslogUdp',
    endpoint: '192.0.2.10',
    port: 514,
    format: 'SyslogRfc3164',
    enabled: true,
  };
  const unknown = await call(t, lenient, {
    area: 'mc',
    method: 'POST',
    template: '/mc/log/forwarding',
    body: { ...base, app: 'no-such-app' },
  });
  t.is(unknown.status, 400);
  t.true((unknown.body as any).errors.some((e: any) => e.field === 'app'));
  const port = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/log/forwarding',
    body: { ...base, app: await createApp(t, 'logs-port'), port: 70000 },
  });
  t.is(port.status, 400);
  t.true((port.body as any).errors.some((e: any) => e.field === 'port'));
  const appId = await createApp(t, 'logs-mismatch');
  await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/log/forwarding',
    body: { ...base, app: appId },
  });
  const other = await createApp(t, 'logs-other');
  const mismatch = await call(t, sim, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/log/forwarding/{appId}',
    params: { appId },
    body: { ...base, app: other },
  });
  t.is(mismatch.status, 400);
  t.true((mismatch.body as any).errors.some((e: any) => e.field === 'app'));
});

test('log forwarding binds like the live platform: any case, unknown members dropped, recorded as inexact', async (t) => {
  const own = await startTestSim();
  t.teardown(() => own.close());
  const app = await call(t, own, {
    area: 'mc',
    method: 'POST',
    template: '/mc/apps',
    body: minimalAppRequest('logs-binding'),
  });
  const appId = (app.body as any).id as string;
  const exact = {
    app: appId,
    type: 'SyslogUdp',
    endpoint: 'logs.example.com',
    port: 514,
    format: 'SyslogRfc3164',
    enabled: true,
  };
  const created = await call(t, own, {
    area: 'mc',
    method: 'POST',
    template: '/mc/log/forwarding',
    body: exact,
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.false('token' in (created.body as any), 'no token set: the member is left out');
  t.is(own.calls.snapshot().rejectedByDocument.count, 0, 'an exact request is not recorded');
  const loose = await call(t, own, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/log/forwarding/{appId}',
    params: { appId },
    body: {
      App: appId,
      TYPE: 'SyslogTcp',
      Endpoint: 'other.example.com',
      port: 6514,
      Format: 'SyslogRfc5424',
      Enabled: false,
      Token: 'loose-token-value',
      id: 'read-model-member',
      createdAt: '2026-01-01T00:00:00Z',
    },
  });
  t.is(loose.status, 200, JSON.stringify(loose.body));
  t.like(loose.body, {
    type: 'SyslogTcp',
    endpoint: 'other.example.com',
    port: 6514,
    format: 'SyslogRfc5424',
    enabled: false,
    token: 'loose-token-value',
  });
  t.not((loose.body as any).id, 'read-model-member', 'an unknown member is dropped');
  const record = own.calls.snapshot().rejectedByDocument;
  t.is(record.count, 1);
  t.is(record.log[0]?.accepted, true);
  t.regex(record.log[0]?.problems.join('; ') ?? '', /TYPE/);
  const missing = await call(t, own, {
    area: 'mc',
    method: 'PUT',
    template: '/mc/log/forwarding/{appId}',
    params: { appId },
    body: { app: appId, type: 'SyslogTcp', endpoint: 'x.example.com', port: 514, enabled: true },
  });
  t.is(missing.status, 400, 'format is required by the document');
});
