/**
 * EdgeScript end to end, driven with `kubectl apply` against a real kube-apiserver, a real
 * operator process and cdn-sim (strict against the compute document): code from a ConfigMap
 * created, set and published (`status.activeRelease`, Ready); the ConfigMap edited → exactly one
 * code set and one publish; `publish: Held` → the change is set, not published; naming the
 * earlier release rolls back to it; deletion with Orphan and Delete; nothing cdn-sim rejected.
 */
import test from 'ava';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';
import { apply, deleteObject, getObject, waitFor, waitForCondition } from '../support/kube.js';
import { startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';

const RESOURCE = 'edgescripts.compute.cdn.operator.io';
const API_KEY = 'e2e-edgescript-key';

let env: OperatorEnv;

test.before(async () => {
  env = await startOperatorEnv('e2e-es', API_KEY);
});

test.after.always(async () => {
  await env?.stop();
});

function scriptJson(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind('EdgeScript'),
    kind: 'EdgeScript',
    metadata: { name, namespace: env.ns, annotations: { 'cdn.operator.io/poll-interval': '2s' } },
    spec,
  });
}

function codeJson(name: string, code: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: env.ns },
    data: { 'index.ts': code },
  });
}

/** The compute writes cdn-sim received (`POST /compute/script/{id}/publish`), in order. */
function computeWrites(): string[] {
  return env.sim.calls
    .snapshot()
    .log.filter((c) => c.method !== 'GET' && c.path.startsWith('/compute'))
    .map((c) => c.route);
}

/** Waits until the object's status satisfies `ok`, with Ready=True for its generation. */
async function waitStatus(
  name: string,
  ok: (status: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return waitFor(
    async () => {
      const obj = await waitForCondition(RESOURCE, env.ns, name, 'Ready', 'True');
      const status = (obj.status ?? {}) as Record<string, unknown>;
      return ok(status) ? status : undefined;
    },
    60_000,
    `${name} status`,
    250,
  );
}

const PUBLISH = 'POST /compute/script/{id}/publish';
const SET_CODE = 'POST /compute/script/{id}/code';
const PUBLISH_UUID = 'POST /compute/script/{id}/publish/{uuid}';
const DELETE = 'DELETE /compute/script/{id}';

test.serial(
  'code from a ConfigMap: created, published, Ready; an edit is one set and one publish',
  async (t) => {
    await apply(codeJson('hello-code', 'export default () => new Response("one");'));
    await apply(
      scriptJson('hello', {
        scriptType: 'Middleware',
        code: { configMapKeyRef: { name: 'hello-code', key: 'index.ts' } },
        publish: 'Always',
      }),
    );
    const first = await waitStatus('hello', (s) => typeof s.activeRelease === 'string');
    t.truthy(first.scriptId);

    const before = computeWrites().length;
    await apply(codeJson('hello-code', 'export default () => new Response("two");'));
    const second = await waitStatus('hello', (s) => s.activeRelease !== first.activeRelease);
    // Let a few polls pass: nothing more may be sent for an unchanged ConfigMap.
    await new Promise((r) => setTimeout(r, 5_000));
    const writes = computeWrites().slice(before);
    t.is(writes.filter((w) => w === SET_CODE).length, 1, writes.join(', '));
    t.is(writes.filter((w) => w === PUBLISH).length, 1, writes.join(', '));
    t.not(second.activeRelease, first.activeRelease);
  },
);

test.serial(
  'publish: Held sets a change without publishing; naming the earlier release rolls back',
  async (t) => {
    const spec = {
      scriptType: 'Middleware',
      code: { configMapKeyRef: { name: 'hello-code', key: 'index.ts' } },
    };
    const live = await waitStatus('hello', (s) => typeof s.activeRelease === 'string');
    const releases = live.releases as { uuid: string; live?: boolean }[];
    const earlier = releases.find((r) => r.uuid !== live.activeRelease);
    t.truthy(earlier, 'the first release is listed');
    await apply(scriptJson('hello', { ...spec, publish: 'Held' }));
    const before = computeWrites().length;
    await apply(codeJson('hello-code', 'export default () => new Response("three");'));
    await waitStatus('hello', (s) => s.codeHash !== live.codeHash);
    await new Promise((r) => setTimeout(r, 5_000));
    const held = computeWrites().slice(before);
    t.deepEqual(held.filter((w) => w === SET_CODE).length, 1, held.join(', '));
    t.false(
      held.some((w) => w === PUBLISH || w === PUBLISH_UUID),
      held.join(', '),
    );
    t.is((await getObject(RESOURCE, env.ns, 'hello'))?.status?.activeRelease, live.activeRelease);

    const rollback = computeWrites().length;
    await apply(scriptJson('hello', { ...spec, publish: 'Held', release: earlier!.uuid }));
    await waitStatus('hello', (s) => s.activeRelease === earlier!.uuid);
    t.deepEqual(
      computeWrites()
        .slice(rollback)
        .filter((w) => w.startsWith('POST /compute/script/{id}/publish')),
      [PUBLISH_UUID],
    );
  },
);

test.serial('delete: Orphan leaves the script, Delete removes it; nothing rejected', async (t) => {
  await apply(
    scriptJson('kept', {
      scriptType: 'Standalone',
      code: { inline: 'export default () => new Response("kept");' },
      publish: 'Always',
      deletionPolicy: 'Orphan',
    }),
  );
  const kept = Number((await waitStatus('kept', (s) => s.scriptId !== undefined)).scriptId);
  const before = computeWrites().length;
  await deleteObject(RESOURCE, env.ns, 'kept');
  await waitFor(async () => (await getObject(RESOURCE, env.ns, 'kept')) === undefined, 30_000);
  t.false(computeWrites().slice(before).includes(DELETE), 'Orphan deletes nothing');
  t.truthy(
    env.sim.state.collections.of('edgeScripts').get(String(kept)),
    'the script is still on the platform',
  );

  const id = Number((await getObject(RESOURCE, env.ns, 'hello'))?.status?.scriptId);
  await deleteObject(RESOURCE, env.ns, 'hello');
  await waitFor(async () => (await getObject(RESOURCE, env.ns, 'hello')) === undefined, 30_000);
  t.falsy(env.sim.state.collections.of('edgeScripts').get(String(id)), 'Delete removes the script');

  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
