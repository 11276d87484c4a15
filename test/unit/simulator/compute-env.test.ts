/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- answer bodies are read loosely here; computeCall() has already checked each against the compute document */
/**
 * cdn-sim's edge script variables and secrets: add (a taken name is 400), upsert by name (200
 * with the new one, 204 for an update), get, update, delete; secret values are write-only: no
 * answer, state dump, state file or call log holds one. Answers are checked against the compute
 * document (compute-support.ts).
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { admin, startTestSim } from '../../support/sim-client.js';
import { addScript, computeCall, type ComputeAnswer } from './compute-support.js';

const VALUE = 'sk_live_"quoted"-value-0123456789';
const ROTATED = 'sk_live_rotated-9876543210';

type Api = (
  method: string,
  template: string,
  body?: unknown,
  ids?: Record<string, number>,
) => Promise<ComputeAnswer>;

async function setUp(
  t: ExecutionContext,
  stateFile?: string,
): Promise<{ s: SimulatorHandle; id: number; api: Api }> {
  const s = await startTestSim(stateFile ? { stateFile } : {});
  t.teardown(() => s.close());
  const script = await addScript(t, s, { Name: 'env', ScriptType: 1 });
  const id = script.Id as number;
  const api: Api = (method, template, body, ids) =>
    computeCall(t, s, { method, template, params: { id, ...ids }, body });
  return { s, id, api };
}

test('variables: add, a taken name refused, upsert creates then updates, get, update keeps what is left out, delete', async (t) => {
  const { s, api } = await setUp(t);
  const added = await api('POST', '/compute/script/{id}/variables/add', {
    Name: 'REGION',
    Required: true,
    DefaultValue: 'eu',
  });
  t.like(added, { status: 200, body: { Name: 'REGION', Required: true, DefaultValue: 'eu' } });
  const variableId = added.body.Id as number;
  const taken = await api('POST', '/compute/script/{id}/variables/add', {
    Name: 'REGION',
    Required: false,
  });
  t.like(taken, { status: 400, body: { ErrorKey: 'edgescript.variable_exists', Field: 'Name' } });
  const created = await api('PUT', '/compute/script/{id}/variables', { Name: 'MODE' });
  t.like(created, { status: 200, body: { Name: 'MODE', Required: false, DefaultValue: null } });
  const updated = await api('PUT', '/compute/script/{id}/variables', {
    Name: 'REGION',
    DefaultValue: 'us',
  });
  t.is(updated.status, 204);
  t.is(updated.body, undefined);
  const one = await api('GET', '/compute/script/{id}/variables/{variableId}', undefined, {
    variableId,
  });
  t.like(one.body, { Id: variableId, DefaultValue: 'us', Required: true }, 'Required kept');
  const changed = await api(
    'POST',
    '/compute/script/{id}/variables/{variableId}',
    { Required: false },
    { variableId },
  );
  t.like(changed.body, { DefaultValue: 'us', Required: false });
  const script = await api('GET', '/compute/script/{id}');
  t.deepEqual(
    script.body.EdgeScriptVariables.map((v: { Name: string }) => v.Name),
    ['REGION', 'MODE'],
  );
  const del = { variableId };
  t.is(
    (await api('DELETE', '/compute/script/{id}/variables/{variableId}', undefined, del)).status,
    204,
  );
  t.is(
    (await api('GET', '/compute/script/{id}/variables/{variableId}', undefined, del)).status,
    404,
  );
  t.is(
    (await api('DELETE', '/compute/script/{id}/variables/{variableId}', undefined, del)).status,
    404,
  );
  t.is(s.calls.snapshot().rejectedByDocument.count, 0);
});

test('secrets: add, a taken name refused, upsert, update, delete; no answer ever carries a value', async (t) => {
  const { s, api } = await setUp(t);
  const answers: unknown[] = [];
  const keep = async (p: Promise<ComputeAnswer>): Promise<ComputeAnswer> => {
    const res = await p;
    answers.push(res.body);
    return res;
  };
  const added = await keep(
    api('POST', '/compute/script/{id}/secrets', { Name: 'API_KEY', Secret: VALUE }),
  );
  t.is(added.status, 200);
  t.deepEqual(Object.keys(added.body), ['Id', 'Name', 'LastModified']);
  const secretId = added.body.Id as number;
  const digest = (): unknown =>
    (
      s.state.collections.of('edgeScripts').values().next().value?.secrets as Array<{
        valueDigest: string;
      }>
    )[0]?.valueDigest;
  const before = digest();
  const taken = await keep(
    api('POST', '/compute/script/{id}/secrets', { Name: 'API_KEY', Secret: 'x' }),
  );
  t.like(taken, { status: 400, body: { ErrorKey: 'edgescript.secret_exists' } });
  const upserted = await keep(
    api('PUT', '/compute/script/{id}/secrets', { Name: 'API_KEY', Secret: ROTATED }),
  );
  t.is(upserted.status, 204);
  t.not(digest(), before, 'the upsert set a new value');
  const fresh = await keep(
    api('PUT', '/compute/script/{id}/secrets', { Name: 'OTHER', Secret: VALUE }),
  );
  t.like(fresh, { status: 200, body: { Name: 'OTHER' } });
  const updated = await keep(
    api('POST', '/compute/script/{id}/secrets/{secretId}', { Secret: VALUE }, { secretId }),
  );
  t.like(updated, { status: 200, body: { Id: secretId, Name: 'API_KEY' } });
  const list = await keep(api('GET', '/compute/script/{id}/secrets'));
  t.deepEqual(
    list.body.Secrets.map((x: { Name: string }) => x.Name),
    ['API_KEY', 'OTHER'],
  );
  await keep(api('GET', '/compute/script/{id}'));
  const del = { secretId };
  t.is(
    (await api('DELETE', '/compute/script/{id}/secrets/{secretId}', undefined, del)).status,
    204,
  );
  t.is(
    (await api('DELETE', '/compute/script/{id}/secrets/{secretId}', undefined, del)).status,
    404,
  );
  const seen = [
    JSON.stringify(answers),
    JSON.stringify((await admin(s, 'GET', '/_sim/state')).body),
    JSON.stringify((await admin(s, 'GET', '/_sim/calls')).body),
  ].join('\n');
  for (const value of [VALUE, ROTATED]) {
    t.false(seen.includes(value) || seen.includes(JSON.stringify(value).slice(1, -1)), value);
  }
  t.is(s.calls.snapshot().rejectedByDocument.count, 0);
});

test('scripts, their code, variables, secret digests and releases survive a restart with the state file; no value is written', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdn-sim-compute-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const stateFile = path.join(dir, 'state.json');
  const first = await setUp(t, stateFile);
  await first.api('POST', '/compute/script/{id}/code', { Code: 'persisted code' });
  await first.api('POST', '/compute/script/{id}/publish', { Note: 'kept' });
  await first.api('PUT', '/compute/script/{id}/variables', { Name: 'V', DefaultValue: 'd' });
  await first.api('PUT', '/compute/script/{id}/secrets', { Name: 'S', Secret: VALUE });
  const key = (await first.api('GET', '/compute/script/{id}')).body.DeploymentKey as string;
  await first.s.close();
  t.false(readFileSync(stateFile, 'utf8').includes(VALUE), 'the state file holds no secret value');
  const second = await startTestSim({ stateFile });
  t.teardown(() => second.close());
  const read = (template: string): Promise<ComputeAnswer> =>
    computeCall(t, second, { method: 'GET', template, params: { id: first.id } });
  const script = (await read('/compute/script/{id}')).body;
  t.like(script, { Name: 'env', DeploymentKey: key });
  t.deepEqual(
    script.EdgeScriptVariables.map((v: { Name: string }) => v.Name),
    ['V'],
  );
  t.is((await read('/compute/script/{id}/code')).body.Code, 'persisted code');
  t.like((await read('/compute/script/{id}/releases/active')).body, { Note: 'kept', Status: 1 });
  t.is((await read('/compute/script/{id}/secrets')).body.Secrets[0].Name, 'S');
  const next = await addScript(t, second, { Name: 'after', ScriptType: 2 });
  t.true(next.Id > first.id, 'script ids continue after the restart');
});
