/**
 * The edge script client methods (src/cdn/edge-scripts.ts, edge-script-releases.ts,
 * edge-script-env.ts) against cdn-sim in strict mode: every operation of the compute document,
 * and not one request the document rejects or the platform would only take through its lenient
 * binding (`rejectedByDocument` counts both). Secret values and deployment keys never reach a
 * caller through an answer or an error.
 */
import test, { type ExecutionContext } from 'ava';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { startSimClient, type SimClient } from './sim-harness.js';

const SECRET = 'edge-secret-"quoted"\\value-0123456789';
const CODE = 'export default { fetch: () => new Response("v1") };';

/** True when `value` (an object, or an error's message and detail) shows `secret` in any form. */
function leaks(value: unknown, secret: string): boolean {
  const texts = [JSON.stringify(value)];
  if (value instanceof Error) texts.push(value.message, (value as CdnApiError).detail ?? '');
  const forms = [secret, JSON.stringify(secret).slice(1, -1)];
  return texts.some((text) => forms.some((form) => text.includes(form)));
}

function exact(t: ExecutionContext, h: SimClient): void {
  const rejected = h.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
}

test('scripts: add with a linked pull zone, list with filters, get, update, code, statistics, key rotation, delete', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const script = await c.addEdgeScript({
    Name: 'front',
    ScriptType: 1,
    Code: CODE,
    CreateLinkedPullZone: true,
    LinkedPullZoneName: 'front-zone',
  });
  t.like(script, { Name: 'front', ScriptType: 1, SystemHostname: 'front-zone.b-cdn.net' });
  const id = script.Id!;
  const zoneId = script.LinkedPullZones![0]!.Id!;
  t.like(await c.getPullZone(zoneId), { EdgeScriptId: id, OriginType: 4 });
  const mw = await c.addEdgeScript({ Name: 'mw', ScriptType: 2 });
  await c.addEdgeScript({ Name: 'dns', ScriptType: 0 });
  const names = async (query: Parameters<typeof c.listEdgeScripts>[0]): Promise<string[]> =>
    (await c.listEdgeScripts(query, { pageSize: 5 })).map((s) => s.Name ?? '');
  t.deepEqual(await names({ type: [1, 2] }), ['front', 'mw'], 'type sent once per item');
  t.deepEqual(await names({ search: 'FRO' }), ['front']);
  t.deepEqual(await names({}), ['front', 'mw', 'dns']);
  const withZones = await c.listEdgeScripts({ includeLinkedPullZones: true });
  t.is(withZones[0]!.LinkedPullZones!.length, 1);
  t.like(await c.updateEdgeScript(mw.Id!, { Name: 'mw-renamed' }), {
    Name: 'mw-renamed',
    ScriptType: 2,
  });
  t.is((await c.getEdgeScriptCode(id)).Code, CODE);
  await c.setEdgeScriptCode(id, 'v2');
  t.is((await c.getEdgeScriptCode(id)).Code, 'v2');
  const stats = await c.getEdgeScriptStatistics(id, {
    dateFrom: new Date('2026-02-01T00:00:00Z'),
    dateTo: '2026-02-03T00:00:00Z',
  });
  t.deepEqual(Object.keys(stats.RequestsServedChart ?? {}).length, 3);
  const before = (await c.getEdgeScript(id)).DeploymentKey;
  await c.rotateEdgeScriptDeploymentKey(id);
  t.not((await c.getEdgeScript(id)).DeploymentKey, before);
  await c.deleteEdgeScript(id, true);
  const gone = await t.throwsAsync(c.getEdgeScript(id), { instanceOf: CdnApiError });
  t.is(gone.kind, 'notFound');
  t.false(h.sim.state.pullZones.has(zoneId), 'deleteLinkedPullZones took the zone');
  exact(t, h);
});

test('releases: publish the code, publish again, roll back by uuid; the active release follows', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const id = (await c.addEdgeScript({ Name: 'rel', ScriptType: 1, Code: 'v1' })).Id!;
  t.is(await c.getActiveEdgeScriptRelease(id), undefined, 'nothing published yet');
  await c.publishEdgeScript(id, { note: 'first' });
  const first = await c.getActiveEdgeScriptRelease(id);
  t.like(first, { Code: 'v1', Note: 'first', Status: 1 });
  await c.setEdgeScriptCode(id, 'v2');
  await c.publishEdgeScript(id);
  const releases = await c.listEdgeScriptReleases(id, { pageSize: 5 });
  t.deepEqual(
    releases.map((r) => [r.Code, r.Status]),
    [
      ['v2', 1],
      ['v1', 0],
    ],
  );
  await c.publishEdgeScript(id, { releaseUuid: first!.Uuid! });
  t.like(await c.getActiveEdgeScriptRelease(id), { Id: first!.Id, Code: 'v1' });
  const unknown = await t.throwsAsync(c.publishEdgeScript(id, { releaseUuid: 'no-such-release' }), {
    instanceOf: CdnApiError,
  });
  t.like(unknown, { kind: 'invalid', errorKey: 'edgescript.release_not_found', field: 'uuid' });
  exact(t, h);
});

test('variables: add, upsert (new, then an update answering nothing), get, update, delete', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const id = (await c.addEdgeScript({ Name: 'vars', ScriptType: 2 })).Id!;
  const region = await c.addEdgeScriptVariable(id, { Name: 'REGION', Required: true });
  t.like(region, { Name: 'REGION', Required: true, DefaultValue: null });
  const mode = await c.upsertEdgeScriptVariable(id, { Name: 'MODE', DefaultValue: 'a' });
  t.like(mode, { Name: 'MODE', DefaultValue: 'a' });
  t.is(await c.upsertEdgeScriptVariable(id, { Name: 'MODE', DefaultValue: 'b' }), undefined);
  t.like(await c.getEdgeScriptVariable(id, mode!.Id!), { DefaultValue: 'b' });
  t.like(await c.updateEdgeScriptVariable(id, region.Id!, { DefaultValue: 'eu' }), {
    DefaultValue: 'eu',
    Required: true,
  });
  await c.deleteEdgeScriptVariable(id, region.Id!);
  t.deepEqual(
    (await c.getEdgeScript(id)).EdgeScriptVariables!.map((v) => v.Name),
    ['MODE'],
  );
  const taken = await t.throwsAsync(
    c.addEdgeScriptVariable(id, { Name: 'MODE', Required: false }),
    {
      instanceOf: CdnApiError,
    },
  );
  t.is(taken.kind, 'invalid');
  const long = await t.throwsAsync(
    c.upsertEdgeScriptVariable(id, { Name: 'X', DefaultValue: 'x'.repeat(4097) }),
    { instanceOf: CdnApiError },
  );
  t.like(long, { kind: 'invalid', field: 'DefaultValue' });
  exact(t, h);
});

test('secrets: add, upsert, update, list, delete; a value reaches no answer and no error', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const id = (await c.addEdgeScript({ Name: 'sec', ScriptType: 1 })).Id!;
  const added = await c.addEdgeScriptSecret(id, { Name: 'TOKEN', Secret: SECRET });
  t.deepEqual(Object.keys(added), ['Id', 'Name', 'LastModified']);
  t.is(await c.upsertEdgeScriptSecret(id, { Name: 'TOKEN', Secret: `${SECRET}-2` }), undefined);
  t.like(await c.upsertEdgeScriptSecret(id, { Name: 'OTHER', Secret: SECRET }), { Name: 'OTHER' });
  t.like(await c.updateEdgeScriptSecret(id, added.Id!, SECRET), { Id: added.Id, Name: 'TOKEN' });
  const list = await c.listEdgeScriptSecrets(id);
  t.deepEqual(
    list.map((s) => s.Name),
    ['TOKEN', 'OTHER'],
  );
  t.false(leaks(list, SECRET));
  await c.deleteEdgeScriptSecret(id, added.Id!);
  t.deepEqual(
    (await c.listEdgeScriptSecrets(id)).map((s) => s.Name),
    ['OTHER'],
  );
  const long = await t.throwsAsync(
    c.addEdgeScriptSecret(id, { Name: 'BIG', Secret: `${SECRET}${'x'.repeat(4096)}` }),
    { instanceOf: CdnApiError },
  );
  t.like(long, { kind: 'invalid', field: 'Secret' });
  t.false(leaks(long, SECRET), 'the length check names the length, not the value');
  exact(t, h);
});

test('a secret value or deployment key echoed back by the platform never reaches an error', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const script = await c.addEdgeScript({ Name: 'echo', ScriptType: 1 });
  const id = script.Id!;
  const key = script.DeploymentKey!;
  await h.admin('PUT', '/_sim/faults', {
    echoBodyRoutes: [
      'PUT /compute/script/{id}/secrets',
      'POST /compute/script/{id}/secrets/{secretId}',
      'POST /compute/script/{id}',
    ],
  });
  const upsert = await t.throwsAsync(c.upsertEdgeScriptSecret(id, { Name: 'A', Secret: SECRET }), {
    instanceOf: CdnApiError,
  });
  t.regex(upsert.message, /\[REDACTED\]/, 'the echo came back and was scrubbed');
  t.false(leaks(upsert, SECRET));
  t.false(leaks(upsert.toJSON(), SECRET));
  const update = await t.throwsAsync(c.updateEdgeScriptSecret(id, 1, SECRET), {
    instanceOf: CdnApiError,
  });
  t.false(leaks(update, SECRET));
  // A name that is the deployment key read earlier: the echo of it is scrubbed too.
  const renamed = await t.throwsAsync(c.updateEdgeScript(id, { Name: key.slice(0, 64) }), {
    instanceOf: CdnApiError,
  });
  t.false(leaks(renamed, key));
  t.false(leaks(c, SECRET), 'nor does the client object show it');
});
