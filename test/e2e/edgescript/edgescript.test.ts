/**
 * EdgeScript end to end, driven with `kubectl apply` against a real kube-apiserver, a real
 * operator process and cdn-sim (strict against the compute document): code from a ConfigMap
 * created, set and published (`status.activeRelease`, Ready); the ConfigMap edited → exactly one
 * code set and one publish; `publish: Held` → the change is set, not published; naming the
 * earlier release rolls back to it; secrets from a Secret key, a rotation upserting exactly
 * that secret and no value anywhere (the operator's trace-level log, events, status, cdn-sim's
 * call log and answers); the deployment key in the outputs Secret asked for, a key rotated on
 * the platform rewritten there; deletion with Orphan and Delete; nothing cdn-sim rejected.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';
import {
  apply,
  deleteObject,
  getObject,
  kubectl,
  waitFor,
  waitForCondition,
} from '../support/kube.js';
import { secretYaml, startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';
import { REPO_ROOT } from '../../support/openapi-docs.js';

const RESOURCE = 'edgescripts.compute.cdn.operator.io';
const API_KEY = 'e2e-edgescript-key';

let env: OperatorEnv;

test.before(async () => {
  // Trace level: the secrets test looks for a value in every line the operator can write.
  process.env.CDN_OPERATOR_LOG_LEVEL = 'trace';
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

const UPSERT_SECRET = 'PUT /compute/script/{id}/secrets';
/** Values no output may carry: each a needle of its own. */
const FIRST = 'e2e-secret-value-7d1f0c-first';
const ROTATED = 'e2e-secret-value-7d1f0c-rotated';

/** Every place a value could leak to, as text: log, events, status, sim call log and answers. */
async function everywhere(name: string, scriptId: number): Promise<Record<string, string>> {
  const answer = await fetch(`${env.sim.url}/compute/script/${scriptId}/secrets`, {
    headers: { AccessKey: API_KEY },
  });
  return {
    'operator log (trace)': env.operator.output(),
    events: await kubectl(['get', 'events', '-n', env.ns, '-o', 'json']),
    status: JSON.stringify((await getObject(RESOURCE, env.ns, name))?.status),
    'cdn-sim call log': JSON.stringify(env.sim.calls.snapshot()),
    'cdn-sim answer': await answer.text(),
    'cdn-sim state': JSON.stringify(
      env.sim.state.collections.of('edgeScripts').get(String(scriptId)),
    ),
  };
}

/** The outputs Secret's decoded data, once it has a deployment key. */
async function outputsOf(name: string, key?: string): Promise<Record<string, string>> {
  return waitFor(
    async () => {
      const secret = await getObject('secret', env.ns, name);
      const data = Object.fromEntries(
        Object.entries((secret?.data ?? {}) as Record<string, string>).map(([k, v]) => [
          k,
          Buffer.from(v, 'base64').toString('utf8'),
        ]),
      );
      const ok =
        data.deploymentKey !== undefined && (key === undefined || data.deploymentKey === key);
      return ok ? data : undefined;
    },
    60_000,
    `outputs Secret ${name}`,
    250,
  );
}

test.serial(
  'secrets: a rotated Secret is upserted once and its value is nowhere; the deployment key in the outputs Secret',
  async (t) => {
    await apply(secretYaml(env.ns, 'script-tokens', { token: FIRST }));
    await apply(
      scriptJson('secretive', {
        scriptType: 'Middleware',
        code: { inline: 'export default () => new Response("secretive");' },
        secrets: [
          {
            name: 'API_TOKEN',
            valueFrom: { secretKeyRef: { name: 'script-tokens', key: 'token' } },
          },
        ],
        outputSecretRef: { name: 'secretive-outputs' },
      }),
    );
    const first = await waitStatus('secretive', (s) => Array.isArray(s.secrets));
    const id = Number(first.scriptId);
    const stored = (): { Name: string; valueDigest: string }[] =>
      (
        env.sim.state.collections.of('edgeScripts').get(String(id)) as {
          secrets: { Name: string; valueDigest: string }[];
        }
      ).secrets;
    const digest = (v: string): string => createHash('sha256').update(v).digest('hex');
    t.deepEqual(
      stored().map((s) => [s.Name, s.valueDigest]),
      [['API_TOKEN', digest(FIRST)]],
      'the script holds the Secret value',
    );

    const before = computeWrites().length;
    await apply(secretYaml(env.ns, 'script-tokens', { token: ROTATED }));
    await waitStatus(
      'secretive',
      (s) =>
        (s.secrets as { fingerprint: string }[])[0]?.fingerprint !==
        (first.secrets as { fingerprint: string }[])[0]?.fingerprint,
    );
    // Let a few polls pass: the rotation is sent once, and nothing else is.
    await new Promise((r) => setTimeout(r, 5_000));
    const writes = computeWrites().slice(before);
    t.deepEqual(writes, [UPSERT_SECRET], writes.join(', '));
    t.deepEqual(
      stored().map((s) => s.valueDigest),
      [digest(ROTATED)],
      'the new value was sent',
    );

    for (const [where, text] of Object.entries(await everywhere('secretive', id))) {
      t.false(text.includes(FIRST), `the first value is in the ${where}`);
      t.false(text.includes(ROTATED), `the rotated value is in the ${where}`);
    }
    // At trace level every line is written; the operator's lowest ones are debug (20).
    t.true(env.operator.output().includes('"level":20'), 'the log has debug lines');

    const script = await fetch(`${env.sim.url}/compute/script/${id}`, {
      headers: { AccessKey: API_KEY },
    });
    const key = ((await script.json()) as { DeploymentKey: string }).DeploymentKey;
    t.deepEqual(await outputsOf('secretive-outputs', key), {
      deploymentKey: key,
      scriptId: String(id),
    });
    t.false(JSON.stringify((await getObject(RESOURCE, env.ns, 'secretive'))?.status).includes(key));
    // Rotated on the platform (by CI, say): the next poll writes the new key.
    await fetch(`${env.sim.url}/compute/script/${id}/deploymentKey/rotate`, {
      method: 'POST',
      headers: { AccessKey: API_KEY },
    });
    const after = await waitFor(
      async () => {
        const data = await outputsOf('secretive-outputs');
        return data.deploymentKey !== key ? data : undefined;
      },
      30_000,
      'the rotated deployment key',
      500,
    );
    t.not(after.deploymentKey, key);
  },
);

test.serial(
  'the example applies: code, env and secret set, Ready, deployment key written',
  async (t) => {
    const file = join(REPO_ROOT, 'examples', 'compute', 'edgescript.yaml');
    await kubectl(['apply', '-n', env.ns, '-f', file]);
    const status = await waitStatus('add-headers', (s) => Array.isArray(s.secrets));
    const id = Number(status.scriptId);
    const script = env.sim.state.collections.of('edgeScripts').get(String(id)) as {
      secrets: { Name: string }[];
    };
    t.deepEqual(
      script.secrets.map((s) => s.Name),
      ['API_TOKEN'],
    );
    t.is((await outputsOf('add-headers-deploy')).scriptId, String(id));
    await deleteObject(RESOURCE, env.ns, 'add-headers');
    await waitFor(
      async () => (await getObject(RESOURCE, env.ns, 'add-headers')) === undefined,
      30_000,
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
