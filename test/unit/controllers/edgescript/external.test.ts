/**
 * The EdgeScript's external client (the kit's CrudExternal with the kind's hooks) against an
 * in-process cdn-sim (strict against the compute document): the writes of each pass, table by
 * table. A pass is what the runtime does: create when nothing is recorded (then observe and
 * update in the same pass), else observe and update what differs.
 */
import test, { type ExecutionContext } from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { codeHashOf } from '../../../../src/controllers/edgescript/code.js';
import {
  createEdgeScriptKind,
  edgeScriptResource,
  type EdgeScriptState,
} from '../../../../src/controllers/edgescript/index.js';
import type { EdgeScript, EdgeScriptSpec } from '../../../../src/controllers/edgescript/types.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import type { ExternalContext } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';

const API_KEY = 'unit-edgescript-key';
let sim: SimulatorHandle;
let client: CdnClient;
/** The namespace's ConfigMaps, by name. */
const configMaps = new Map<string, Record<string, string>>();

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
});

test.after.always(async () => {
  await sim?.close();
});

/** The namespace's Secrets, by name. */
const secrets = new Map<string, Record<string, string>>();

/** The client the runtime connects for `obj` (built per pass: it reads what `obj` manages). */
function external(obj = objectOf('any')): CrudExternal<EdgeScript, EdgeScriptState> {
  const readConfigMap = (_ns: string, name: string): Promise<Record<string, string> | undefined> =>
    Promise.resolve(configMaps.get(name));
  const readSecret = (_ns: string, name: string): Promise<Record<string, string> | undefined> =>
    Promise.resolve(secrets.get(name));
  return new CrudExternal(
    edgeScriptResource({ client, account: 'unit' }, obj, { readConfigMap, readSecret }),
  );
}

function objectOf(name: string, spec: Partial<EdgeScriptSpec> = {}): EdgeScript {
  return {
    apiVersion: 'compute.cdn.operator.io/v1beta1',
    kind: 'EdgeScript',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}` },
    spec: {
      scriptType: 'Middleware',
      code: { configMapKeyRef: { name: `${name}-code`, key: 'index.ts' } },
      ...spec,
    },
  };
}

function ctxOf(externalId?: string): ExternalContext {
  return {
    ...(externalId ? { externalId } : {}),
    createPending: false,
    createToken: '0123456789abcdef',
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}

/** The writes the client sent since call number `from`, as route templates. */
function writesSince(from: number): string[] {
  return sim.calls
    .snapshot()
    .log.slice(from)
    .filter((c) => c.method !== 'GET')
    .map((c) => c.route);
}

/** One pass as the runtime makes it; the writes it sent. */
async function pass(
  ext: CrudExternal<EdgeScript, EdgeScriptState>,
  obj: EdgeScript,
): Promise<string[]> {
  const from = sim.calls.snapshot().log.length;
  let id = obj.status?.scriptId === undefined ? undefined : String(obj.status.scriptId);
  if (id === undefined) {
    const created = await ext.create(obj, ctxOf());
    id = created.externalId;
    obj.status = { ...obj.status, ...created.status };
  }
  const seen = await ext.observe(obj, ctxOf(id));
  obj.status = { ...obj.status, ...seen.status };
  if (!seen.upToDate) {
    const updated = await ext.update(obj, seen, ctxOf(id));
    obj.status = { ...obj.status, ...updated?.status };
  }
  return writesSince(from);
}

const SCRIPT = 'POST /compute/script';
const RENAME = 'POST /compute/script/{id}';
const SET_CODE = 'POST /compute/script/{id}/code';
const PUBLISH = 'POST /compute/script/{id}/publish';
const PUBLISH_UUID = 'POST /compute/script/{id}/publish/{uuid}';

interface Step {
  /** Why this pass sends what it sends. */
  reason: string;
  /** The ConfigMap's code before the pass (absent: unchanged). */
  code?: string;
  /** Spec members set before the pass; `release` may name an earlier step's live release. */
  spec?: Partial<EdgeScriptSpec>;
  /** The release of step `rollbackTo` becomes `spec.release`. */
  rollbackTo?: number;
  writes: string[];
  /** The live release after the pass is the one of step n (or a new one: 'new', none: 'none'). */
  live: number | 'new' | 'none';
}

const SCENARIOS: { name: string; spec: Partial<EdgeScriptSpec>; steps: Step[] }[] = [
  {
    name: 'always',
    spec: {},
    steps: [
      {
        reason:
          'create carries the code; the same pass renames it from the provisional name and publishes',
        code: 'export default () => 1;',
        writes: [SCRIPT, RENAME, PUBLISH],
        live: 'new',
      },
      { reason: 'unchanged ConfigMap: nothing is sent', writes: [], live: 0 },
      {
        reason: 'a code change: exactly one set and one publish',
        code: 'export default () => 2;',
        writes: [SET_CODE, PUBLISH],
        live: 'new',
      },
      { reason: 'after the change, again nothing', writes: [], live: 2 },
    ],
  },
  {
    name: 'held',
    spec: { publish: 'Held' },
    steps: [
      {
        reason: 'Held: the create sets the code, nothing is published',
        code: 'export default () => "a";',
        writes: [SCRIPT, RENAME],
        live: 'none',
      },
      {
        reason: 'Always for once: the code is published',
        spec: { publish: 'Always' },
        writes: [PUBLISH],
        live: 'new',
      },
      {
        reason: 'Held again: a code change is set, not published',
        spec: { publish: 'Held' },
        code: 'export default () => "b";',
        writes: [SET_CODE],
        live: 1,
      },
      {
        reason: 'Held, nothing named the release: nothing is sent',
        writes: [],
        live: 1,
      },
      {
        reason: 'Always publishes the held code; back to Held, then roll back',
        spec: { publish: 'Always' },
        writes: [PUBLISH],
        live: 'new',
      },
      {
        reason:
          'Held with spec.release naming the first release: publish of that release (rollback)',
        spec: { publish: 'Held' },
        rollbackTo: 1,
        writes: [PUBLISH_UUID],
        live: 1,
      },
      { reason: 'the named release is live: nothing is sent', writes: [], live: 1 },
    ],
  },
];

/** Sets the ConfigMap and the spec of `step` (`lives`: the live release after each step). */
function prepare(obj: EdgeScript, cm: string, step: Step, lives: (string | undefined)[]): void {
  if (step.code !== undefined) configMaps.set(cm, { 'index.ts': step.code });
  const spec = { ...obj.spec!, ...step.spec };
  // Always takes no release: a step that switches to it drops the one a rollback named.
  if (spec.publish === 'Always') delete spec.release;
  if (step.rollbackTo !== undefined) spec.release = lives[step.rollbackTo]!;
  obj.spec = spec;
}

/** The live release after step `i` is the one the step expects. */
function checkLive(
  t: ExecutionContext,
  i: number,
  step: Step,
  lives: (string | undefined)[],
): void {
  const live = lives[i];
  if (step.live === 'none') t.is(live, undefined, `step ${i}: nothing live`);
  else if (step.live === 'new') {
    t.truthy(live, `step ${i}: a release is live`);
    t.false(lives.slice(0, i).includes(live), `step ${i}: a new release`);
  } else t.is(live, lives[step.live], `step ${i}: the release of step ${step.live} is live`);
}

for (const scenario of SCENARIOS) {
  test.serial(`passes of an EdgeScript (${scenario.name})`, async (t) => {
    const ext = external();
    const cm = `es-${scenario.name}-code`;
    const obj = objectOf(`es-${scenario.name}`, scenario.spec);
    const lives: (string | undefined)[] = [];
    for (const [i, step] of scenario.steps.entries()) {
      prepare(obj, cm, step, lives);
      t.deepEqual(await pass(ext, obj), step.writes, `step ${i}: ${step.reason}`);
      lives.push(obj.status?.activeRelease);
      checkLive(t, i, step, lives);
      const code = configMaps.get(cm)?.['index.ts'] ?? '';
      t.is(
        obj.status?.codeHash,
        codeHashOf(code),
        `step ${i}: status shows the digest of the code`,
      );
    }
    t.is(obj.status?.name, `es-${scenario.name}`, 'renamed from the provisional name');
    t.is(obj.status?.scriptType, 'Middleware');
    t.true((obj.status?.releases?.length ?? 0) > 0, 'status lists the releases');
  });
}

test.serial('a missing ConfigMap waits (ReferenceNotReady) and sends nothing', async (t) => {
  const ext = external();
  const obj = objectOf('es-missing');
  const from = sim.calls.snapshot().log.length;
  const err = await t.throwsAsync(ext.create(obj, ctxOf()));
  t.regex(err.message, /waiting for ConfigMap team-a\/es-missing-code/);
  t.deepEqual(writesSince(from), []);
});

test.serial('inline code: created with it, in sync on the next pass', async (t) => {
  const ext = external();
  const obj = objectOf('es-inline', {
    scriptType: 'Standalone',
    code: { inline: 'export default 1;' },
  });
  t.deepEqual(await pass(ext, obj), [SCRIPT, RENAME, PUBLISH]);
  t.deepEqual(await pass(ext, obj), []);
  t.is(obj.status?.scriptType, 'Standalone');
});

const DELETIONS = [
  {
    policy: 'Delete' as const,
    writes: ['DELETE /compute/script/{id}'],
    gone: true,
    reason: 'Delete removes the script',
  },
  { policy: 'Orphan' as const, writes: [], gone: false, reason: 'Orphan leaves the script' },
];

for (const d of DELETIONS) {
  test.serial(`deletion with ${d.policy}`, async (t) => {
    const ext = external();
    const obj = objectOf(`es-del-${d.policy.toLowerCase()}`, {
      code: { inline: 'export default 2;' },
    });
    await pass(ext, obj);
    const id = String(obj.status?.scriptId);
    obj.spec = { ...obj.spec!, deletionPolicy: d.policy };
    const from = sim.calls.snapshot().log.length;
    await ext.delete(obj, ctxOf(id));
    t.deepEqual(writesSince(from), d.writes, d.reason);
    const left = await client.listEdgeScripts();
    t.is(!left.some((s) => String(s.Id) === id && s.Deleted !== true), d.gone, d.reason);
  });
}

test.serial(
  'createPullZone: the script is created with its own pull zone, left in place on Delete',
  async (t) => {
    const obj = objectOf('es-with-zone', {
      scriptType: 'Standalone',
      code: { inline: 'export default 3;' },
      createPullZone: true,
    });
    // The runtime connects per pass with the object itself.
    const ext = external(obj);
    t.deepEqual(await pass(ext, obj), [SCRIPT, RENAME, PUBLISH]);
    const zoneId = Number(obj.status?.pullZoneId);
    const zone = (await client.listPullZones()).find((z) => z.Id === zoneId);
    t.is(zone?.Name, 'es-with-zone', 'named after the script, not its provisional create name');
    t.deepEqual(await pass(ext, obj), [], 'in sync: createPullZone is not compared');
    obj.spec = { ...obj.spec!, deletionPolicy: 'Delete' };
    await ext.delete(obj, ctxOf(String(obj.status?.scriptId)));
    t.true(
      (await client.listPullZones()).some((z) => z.Id === zoneId),
      'its pull zone stays: deleteLinkedPullZones would take zones of other objects too',
    );
  },
);

test.serial('without createPullZone a standalone script gets no pull zone', async (t) => {
  const ext = external();
  const zones = (await client.listPullZones()).length;
  const obj = objectOf('es-no-zone', {
    scriptType: 'Standalone',
    code: { inline: 'export default 4;' },
  });
  await pass(ext, obj);
  t.is(obj.status?.pullZoneId, undefined);
  t.is((await client.listPullZones()).length, zones, 'no pull zone made');
});

const UPSERT = 'PUT /compute/script/{id}/variables';
const DELETE_VAR = 'DELETE /compute/script/{id}/variables/{variableId}';

const ENV_STEPS: {
  reason: string;
  env?: EdgeScriptSpec['env'];
  /** The ConfigMap `es-env-vars` before the pass. */
  vars?: Record<string, string>;
  writes: string[];
  live: Record<string, string>;
}[] = [
  {
    reason: 'no env: the variables are not managed',
    writes: [SCRIPT, RENAME, PUBLISH],
    live: {},
  },
  {
    reason: 'a literal and a ConfigMap key: one upsert each, nothing published',
    env: [
      { name: 'MODE', value: 'strict' },
      { name: 'ORIGIN', valueFrom: { configMapKeyRef: { name: 'es-env-vars', key: 'origin' } } },
    ],
    vars: { origin: 'https://a.example.com' },
    writes: [UPSERT, UPSERT],
    live: { MODE: 'strict', ORIGIN: 'https://a.example.com' },
  },
  {
    reason: 'unchanged: nothing is sent',
    writes: [],
    live: { MODE: 'strict', ORIGIN: 'https://a.example.com' },
  },
  {
    reason: 'the ConfigMap changes: exactly one upsert',
    vars: { origin: 'https://b.example.com' },
    writes: [UPSERT],
    live: { MODE: 'strict', ORIGIN: 'https://b.example.com' },
  },
  {
    reason: 'a variable left out of the list is deleted',
    env: [{ name: 'MODE', value: 'strict' }],
    writes: [DELETE_VAR],
    live: { MODE: 'strict' },
  },
];

test.serial('environment variables: literal and ConfigMap key, exact', async (t) => {
  const ext = external();
  const obj = objectOf('es-env', { code: { inline: 'export default 3;' } });
  for (const [i, step] of ENV_STEPS.entries()) {
    if (step.vars) configMaps.set('es-env-vars', step.vars);
    if (step.env) obj.spec = { ...obj.spec!, env: step.env };
    t.deepEqual(await pass(ext, obj), step.writes, `step ${i}: ${step.reason}`);
    const script = await client.getEdgeScript(Number(obj.status?.scriptId));
    const live = Object.fromEntries(
      (script.EdgeScriptVariables ?? []).map((v) => [v.Name, v.DefaultValue]),
    );
    t.deepEqual(live, step.live, `step ${i}: the script's variables`);
  }
});

const UPSERT_SECRET = 'PUT /compute/script/{id}/secrets';
const DELETE_SECRET = 'DELETE /compute/script/{id}/secrets/{secretId}';
const TOKEN = 'tok-8f3a1c-first';
const ROTATED = 'tok-8f3a1c-rotated';

const SECRET_STEPS: {
  reason: string;
  secrets?: EdgeScriptSpec['secrets'];
  /** The Secret `es-secret-tokens` before the pass. */
  data?: Record<string, string>;
  writes: string[];
  live: string[];
}[] = [
  {
    reason: 'created with a secret: the same pass upserts it before publishing',
    secrets: [
      {
        name: 'API_TOKEN',
        valueFrom: { secretKeyRef: { name: 'es-secret-tokens', key: 'token' } },
      },
    ],
    data: { token: TOKEN },
    writes: [SCRIPT, RENAME, UPSERT_SECRET, PUBLISH],
    live: ['API_TOKEN'],
  },
  { reason: 'unchanged Secret: nothing is sent', writes: [], live: ['API_TOKEN'] },
  {
    reason: 'the Secret rotated: exactly one upsert, nothing published',
    data: { token: ROTATED },
    writes: [UPSERT_SECRET],
    live: ['API_TOKEN'],
  },
  { reason: 'after the rotation: nothing is sent', writes: [], live: ['API_TOKEN'] },
  {
    reason: 'the secret left out of the list is deleted',
    secrets: [],
    writes: [DELETE_SECRET],
    live: [],
  },
];

test.serial(
  'secrets from a Secret key: upserted, rotated once, deleted; no value shown',
  async (t) => {
    const obj = objectOf('es-secrets', { code: { inline: 'export default 4;' } });
    for (const [i, step] of SECRET_STEPS.entries()) {
      if (step.data) secrets.set('es-secret-tokens', step.data);
      if (step.secrets) obj.spec = { ...obj.spec!, secrets: step.secrets };
      t.deepEqual(await pass(external(obj), obj), step.writes, `step ${i}: ${step.reason}`);
      const live = await client.listEdgeScriptSecrets(Number(obj.status?.scriptId));
      t.deepEqual(
        live.map((l) => l.Name),
        step.live,
        `step ${i}: the script's secrets`,
      );
      const shown = JSON.stringify(obj.status);
      t.false(shown.includes(TOKEN) || shown.includes(ROTATED), `step ${i}: no value in status`);
    }
  },
);

test.serial('a missing Secret key waits before the create: nothing is sent', async (t) => {
  const obj = objectOf('es-secret-missing', {
    code: { inline: 'export default 5;' },
    secrets: [{ name: 'K', valueFrom: { secretKeyRef: { name: 'es-no-such', key: 'k' } } }],
  });
  const from = sim.calls.snapshot().log.length;
  const err = await t.throwsAsync(external(obj).create(obj, ctxOf()));
  t.is(err.message, 'waiting for Secret team-a/es-no-such (spec.secrets[K]): not found');
  t.deepEqual(writesSince(from), []);
});

test.serial('the deployment key: connection details of each pass, never in status', async (t) => {
  const obj = objectOf('es-key', {
    code: { inline: 'export default 6;' },
    outputSecretRef: { name: 'es-key-outputs' },
  });
  await pass(external(obj), obj);
  const id = String(obj.status?.scriptId);
  const seen = await external(obj).observe(obj, ctxOf(id));
  const key = (await client.getEdgeScript(Number(id))).DeploymentKey;
  t.truthy(key);
  t.deepEqual(seen.connectionDetails, { deploymentKey: key, scriptId: id });
  t.false(JSON.stringify(obj.status).includes(key!), 'no key in status');
  t.false(JSON.stringify(seen.diff).includes(key!), 'no key in the plan');
});

const WIRING: {
  reason: string;
  spec: Partial<EdgeScriptSpec>;
  secrets: string[];
  outputs: string | undefined;
}[] = [
  {
    reason: 'no secrets, no outputs: nothing watched, no Secret',
    spec: {},
    secrets: [],
    outputs: undefined,
  },
  {
    reason: 'the secrets Secret watched once; the outputs Secret only when named',
    spec: {
      secrets: [
        { name: 'A', valueFrom: { secretKeyRef: { name: 'tokens', key: 'a' } } },
        { name: 'B', valueFrom: { secretKeyRef: { name: 'tokens', key: 'b' } } },
      ],
      outputSecretRef: { name: 'deploy' },
    },
    secrets: ['tokens'],
    outputs: 'deploy',
  },
];

for (const w of WIRING) {
  test(`kind wiring: ${w.reason}`, (t) => {
    const kind = createEdgeScriptKind({ apiBaseUrl: sim.url, log: pino({ level: 'silent' }) });
    const obj = objectOf('wired', { credentialsRef: { name: 'key' }, ...w.spec });
    const secrets = (kind.references?.(obj) ?? []).filter((r) => r.kind === 'Secret');
    t.deepEqual(
      secrets.map((r) => r.name),
      ['key', ...w.secrets],
    );
    t.is(kind.connectionSecret?.nameOf(obj), w.outputs);
    t.is(kind.connectionSecret?.conditionType, 'OutputsReady');
  });
}
