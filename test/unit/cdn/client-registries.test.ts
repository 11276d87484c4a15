/**
 * Container registry and log forwarding client methods against cdn-sim (strict gate on). The
 * secrets they send (registry passwords, syslog tokens) must never come back to a caller: not
 * in reads, not in the pieces of a password the platform returns, not in an error whose body
 * echoes the request.
 */
import test from 'ava';
import type { CdnClient } from '../../../src/cdn/client.js';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { minimalAppRequest } from './fixtures.js';
import { assertBodiesValid, startSimClient } from './sim-harness.js';

const PASSWORD = 'ghp_Registry"Pass\\word-0123456789';
const TOKEN = 'syslog-token-"quoted"-0123456789';

/** True when `value` (an object, or an error's message and detail) shows `secret` in any form. */
function leaks(value: unknown, secret: string): boolean {
  const texts = [JSON.stringify(value)];
  if (value instanceof Error) texts.push(value.message, (value as CdnApiError).detail ?? '');
  const forms = [secret, JSON.stringify(secret).slice(1, -1)];
  return texts.some((text) => forms.some((form) => text.includes(form)));
}

async function createApp(c: CdnClient, name: string, registryId = '1'): Promise<string> {
  const res = await c.createApp(minimalAppRequest(name, registryId));
  return res.id;
}

test('registries: add, read without password or its pieces, rotate, delete (conflict while in use)', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const id = await c.addRegistry({
    displayName: 'team-ghcr',
    type: 'gitHub',
    passwordCredentials: { userName: 'bot', password: PASSWORD },
  });
  const read = await c.getRegistry(id);
  t.like(read, { id, displayName: 'team-ghcr', userName: 'bot', hostName: 'ghcr.io' });
  t.false('firstPasswordSymbols' in read || 'lastPasswordSymbols' in read, 'pieces dropped');
  const raw = h.sim.state.collections.of('registries').get(String(id));
  t.is(typeof raw?.passwordDigest, 'string');
  const all = await c.listRegistries();
  t.true(all.some((r) => r.isPlatformManaged));
  t.false(all.some((r) => 'firstPasswordSymbols' in r));
  t.false(leaks(all, PASSWORD));
  const digest = raw?.passwordDigest;
  await c.replaceRegistry(id, {
    displayName: 'team-ghcr',
    type: 'gitHub',
    passwordCredentials: { userName: 'bot', password: 'rotated-0123456789' },
  });
  t.not(h.sim.state.collections.of('registries').get(String(id))?.passwordDigest, digest);
  const appId = await createApp(c, 'pulls', String(id));
  const inUse = await t.throwsAsync(c.deleteRegistry(id), { instanceOf: CdnApiError });
  t.is(inUse.kind, 'conflict');
  t.regex(inUse.message, new RegExp(appId));
  await c.deleteApp(appId);
  await c.deleteRegistry(id);
  const gone = await t.throwsAsync(c.deleteRegistry(id), { instanceOf: CdnApiError });
  t.like(gone, { kind: 'notFound', errorKey: 'notFound' });
  const long = await t.throwsAsync(c.addRegistry({ displayName: 'x'.repeat(51) }), {
    instanceOf: CdnApiError,
  });
  t.is(long.kind, 'invalid');
  assertBodiesValid(t, h.sent);
  t.is(h.sim.calls.snapshot().rejectedByDocument.count, 0);
});

test('a registry password echoed back by the platform never reaches an error', async (t) => {
  const h = await startSimClient(t);
  await h.admin('PUT', '/_sim/faults', {
    echoBodyRoutes: ['POST /mc/registries', 'PUT /mc/log/forwarding/{appId}'],
  });
  const e = await t.throwsAsync(
    h.client.addRegistry({
      displayName: 'echo',
      passwordCredentials: { userName: 'bot', password: PASSWORD },
    }),
    { instanceOf: CdnApiError },
  );
  t.regex(e.message, /\[REDACTED\]/, 'the echo came back and was scrubbed');
  t.false(leaks(e, PASSWORD));
  t.false(leaks(e.toJSON(), PASSWORD));
  t.false(leaks(h.client, PASSWORD), 'nor does the client object show it');
});

test('log forwarding: create, read without the token, replace, delete; an echoed token is scrubbed', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const appId = await createApp(c, 'logs');
  const body = {
    app: appId,
    type: 'SyslogTcp' as const,
    endpoint: 'logs.example.com',
    port: 6514,
    token: TOKEN,
    format: 'SyslogRfc5424' as const,
    enabled: true,
  };
  const created = await c.createLogForwarding(body);
  t.like(created, { app: appId, port: 6514, enabled: true });
  t.false(leaks(created, TOKEN));
  t.like(await c.getLogForwarding(appId), { endpoint: 'logs.example.com', tokenSet: true });
  t.false(leaks(await c.listLogForwarding(), TOKEN));
  const { token: _token, ...withoutToken } = body;
  const replaced = await c.replaceLogForwarding(appId, { ...withoutToken, enabled: false });
  t.is(replaced.enabled, false);
  const mismatch = await t.throwsAsync(c.replaceLogForwarding('other', body), {
    instanceOf: CdnApiError,
  });
  t.is(mismatch.kind, 'invalid');
  await h.admin('PUT', '/_sim/faults', { echoBodyRoutes: ['PUT /mc/log/forwarding/{appId}'] });
  const echoed = await t.throwsAsync(c.replaceLogForwarding(appId, body), {
    instanceOf: CdnApiError,
  });
  t.false(leaks(echoed, TOKEN));
  await h.admin('PUT', '/_sim/faults', {});
  await c.deleteLogForwarding(appId);
  t.is(await c.getLogForwarding(appId), undefined);
  const e = await t.throwsAsync(c.deleteLogForwarding(appId), { instanceOf: CdnApiError });
  t.is(e.kind, 'notFound');
  assertBodiesValid(t, h.sent);
});

test('log forwarding read: the platform token is compared in memory, never handed out', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const appId = await createApp(c, 'logs-compare');
  const body = {
    app: appId,
    type: 'SyslogUdp' as const,
    endpoint: '192.0.2.7',
    port: 514,
    format: 'SyslogRfc3164' as const,
    enabled: true,
  };
  await c.createLogForwarding(body);
  const none = await c.getLogForwarding(appId, { compareToken: TOKEN });
  // The platform leaves the member out when no token is set: nothing to compare.
  t.is(none?.tokenSet, undefined);
  t.is(none?.tokenMatches, undefined);
  await c.replaceLogForwarding(appId, { ...body, token: TOKEN });
  const same = await c.getLogForwarding(appId, { compareToken: TOKEN });
  t.like(same, { tokenSet: true, tokenMatches: true, endpoint: '192.0.2.7' });
  t.false('token' in (same ?? {}));
  t.false(leaks(same, TOKEN));
  const other = await c.getLogForwarding(appId, { compareToken: `${TOKEN}x` });
  t.like(other, { tokenSet: true, tokenMatches: false });
  const unasked = await c.getLogForwarding(appId);
  t.is(unasked?.tokenMatches, undefined, 'no comparison unless asked');
  t.false(
    JSON.stringify([h.sent, h.sim.calls.snapshot().log]).includes(`${TOKEN}x`),
    'compareToken is never sent',
  );
  assertBodiesValid(t, h.sent);
});
