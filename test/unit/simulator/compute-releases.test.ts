/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- answer bodies are read loosely here; computeCall() has already checked each against the compute document */
/**
 * cdn-sim's edge script code and releases: setting code publishes nothing, a publish makes a
 * new live release of the current code, publishing an earlier release by its uuid makes it
 * live again (a rollback) without touching the code, and the release list and active release
 * follow. Answers are checked against the compute document (compute-support.ts).
 */
import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { startTestSim } from '../../support/sim-client.js';
import { addScript, computeCall, type ComputeAnswer } from './compute-support.js';

async function setUp(t: ExecutionContext): Promise<{ s: SimulatorHandle; id: number }> {
  const s = await startTestSim();
  t.teardown(() => s.close());
  const script = await addScript(t, s, { Name: 'rel', ScriptType: 1 });
  return { s, id: script.Id as number };
}

function on(
  t: ExecutionContext,
  s: SimulatorHandle,
  id: number,
): (method: string, template: string, body?: unknown, uuid?: string) => Promise<ComputeAnswer> {
  return (method, template, body, uuid) =>
    computeCall(t, s, { method, template, params: { id, ...(uuid ? { uuid } : {}) }, body });
}

test('code: null until set; setting it publishes nothing, and there is nothing live yet', async (t) => {
  const { s, id } = await setUp(t);
  const api = on(t, s, id);
  t.is((await api('GET', '/compute/script/{id}/code')).body.Code, null);
  const empty = await api('POST', '/compute/script/{id}/publish', {});
  t.like(empty, { status: 400, body: { ErrorKey: 'edgescript.no_code', Field: 'Code' } });
  t.is((await api('POST', '/compute/script/{id}/code', { Code: 'v1' })).status, 204);
  const code = await api('GET', '/compute/script/{id}/code');
  t.is(code.body.Code, 'v1');
  t.is((await api('GET', '/compute/script/{id}/releases/active')).status, 404);
  t.deepEqual((await api('GET', '/compute/script/{id}/releases')).body.Items, []);
  t.is((await api('GET', '/compute/script/{id}')).body.CurrentReleaseId, 0);
  t.is(s.calls.snapshot().rejectedByDocument.count, 0);
});

test('publish: each makes a live release of the current code; a uuid makes an earlier one live again, code untouched', async (t) => {
  const { s, id } = await setUp(t);
  const api = on(t, s, id);
  await api('POST', '/compute/script/{id}/code', { Code: 'v1' });
  t.is((await api('POST', '/compute/script/{id}/publish', { Note: 'first' })).status, 204);
  const first = (await api('GET', '/compute/script/{id}/releases/active')).body;
  t.like(first, { Code: 'v1', Note: 'first', Status: 1, Deleted: false });
  t.regex(first.Uuid, /^[0-9a-f-]{36}$/);
  await api('POST', '/compute/script/{id}/code', { Code: 'v2' });
  await api('POST', '/compute/script/{id}/publish', {});
  const releases = (await api('GET', '/compute/script/{id}/releases')).body;
  t.deepEqual(
    releases.Items.map((r: { Code: string; Status: number }) => [r.Code, r.Status]),
    [
      ['v2', 1],
      ['v1', 0],
    ],
    'newest first, one live',
  );
  t.is((await api('GET', '/compute/script/{id}')).body.CurrentReleaseId, releases.Items[0].Id);
  const back = await api('POST', '/compute/script/{id}/publish/{uuid}', {}, first.Uuid);
  t.is(back.status, 204);
  const active = (await api('GET', '/compute/script/{id}/releases/active')).body;
  t.like(active, { Id: first.Id, Code: 'v1', Status: 1 });
  t.is(
    (await api('GET', '/compute/script/{id}/code')).body.Code,
    'v2',
    'a rollback leaves the code',
  );
  t.is((await api('GET', '/compute/script/{id}/releases')).body.TotalItems, 2, 'no new release');
  const unknown = await api(
    'POST',
    '/compute/script/{id}/publish/{uuid}',
    {},
    '00000000-0000-0000-0000-000000000000',
  );
  t.like(unknown, {
    status: 400,
    body: { ErrorKey: 'edgescript.release_not_found', Field: 'uuid' },
  });
  t.is(s.calls.snapshot().rejectedByDocument.count, 0);
});
