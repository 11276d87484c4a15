/**
 * ContainerApp `spec.logForwarding` end to end on a real kube-apiserver, a real operator
 * process and cdn-sim (strict): the writes each step makes (create = 1 POST, no change = 0,
 * endpoint = 1 PUT, Secret rotation = exactly 1 PUT, block removed = 1 DELETE), drift made on
 * the platform restored, a missing token Secret waits, adoption of an application that already
 * forwards with the Secret's token writes nothing, the configuration goes with a deleted
 * application, export -> create the Secret -> apply writes nothing, a token the platform echoes
 * back reaches no log, event, object or metric, and nothing cdn-sim's documents rejected.
 */
import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { CdnClient } from '../../../src/cdn/client.js';
import { exportAccount } from '../../../src/cli/export/export-account.js';
import {
  apply,
  conditionOf,
  deleteObject,
  getObject,
  kubectl,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { assertAbsent } from '../support/redaction.js';
import {
  API_KEY,
  cappYaml,
  container,
  eventsText,
  RESOURCE,
  secretYaml,
  setFaults,
  simCalls,
  startEnv,
  waitCondition,
  waitObject,
  type Env,
} from './setup.js';

// Characters that base64, URL and JSON encoding change, so each form is a distinct needle.
const TOKEN_1 = 'e2e-syslog/token+one=5e1f&"q"';
const TOKEN_2 = 'e2e-syslog/token+two=9a7c?';
const SEEDED = 'e2e-syslog/seeded+token=3d2b';
const ECHO = 'e2e-syslog/echo+token=0c4e!';
const POLL = { 'cdn.operator.io/poll-interval': '3s' };

let env: Env;

test.before(async () => {
  env = await startEnv('e2e-capp-logs');
});

test.after.always(async () => {
  await env?.stop();
});

const BLOCK = {
  type: 'SyslogTCP',
  endpoint: 'logs.example.com',
  port: 6514,
  format: 'SyslogRFC5424',
  tokenSecretRef: { name: 'log-token', key: 'token' },
};

function specOf(name: string, logForwarding?: Record<string, unknown>): Record<string, unknown> {
  return {
    name,
    autoScaling: { min: 1, max: 1 },
    containerTemplates: [container('web', 'nginx', '1.27')],
    ...(logForwarding ? { logForwarding } : {}),
  };
}

function stored(appId: string): Record<string, unknown> | undefined {
  return env.sim.state.collections.of('logForwarding').get(appId);
}

async function callCount(): Promise<number> {
  return (await simCalls(env.sim)).length;
}

/** Writes (non-GET) to /mc/ since `from`, as route templates. */
async function writes(from: number): Promise<string[]> {
  return (await simCalls(env.sim))
    .slice(from)
    .filter((c) => c.method !== 'GET' && c.path.startsWith('/mc/'))
    .map((c) => c.route);
}

async function appIdOf(name: string): Promise<string> {
  return String((await waitCondition(env.ns, name, 'Ready', 'True')).status?.appId);
}

function fingerprintOf(obj: KubeJson | undefined): unknown {
  return (obj?.status?.logForwarding as { tokenFingerprint?: string } | undefined)
    ?.tokenFingerprint;
}

/** Sends a request to cdn-sim as someone outside Kubernetes would. */
async function platform(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${env.sim.url}${path}`, {
    method,
    headers: { AccessKey: API_KEY, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

let appId = '';

test.serial(
  'create: the app and one POST /mc/log/forwarding with the Secret token; status keeps a fingerprint',
  async (t) => {
    await apply(secretYaml(env.ns, 'log-token', { token: TOKEN_1 }));
    const from = await callCount();
    await apply(cappYaml(env.ns, 'logs', specOf('e2e logs', BLOCK), POLL));
    appId = await appIdOf('logs');
    await waitFor(() => stored(appId), 30_000, 'forwarding created');
    const obj = await waitObject(env.ns, 'logs', (o) => !!fingerprintOf(o), 'fingerprint');
    t.deepEqual(await writes(from), [
      'POST /mc/apps',
      'PATCH /mc/apps/{appId}',
      'POST /mc/log/forwarding',
    ]);
    t.like(stored(appId), {
      type: 'SyslogTcp',
      endpoint: 'logs.example.com',
      port: 6514,
      format: 'SyslogRfc5424',
      enabled: true,
      token: TOKEN_1,
    });
    t.regex(String(fingerprintOf(obj)), /^sha256:[0-9a-f]{64}$/);
    t.like(obj.status?.logForwarding, {
      endpoint: 'logs.example.com',
      enabled: true,
      type: 'SyslogTCP',
      format: 'SyslogRFC5424',
    });
    t.false(JSON.stringify(obj).includes(TOKEN_1));
  },
);

test.serial('no change: several polls, no write', async (t) => {
  const from = await callCount();
  await sleep(8_000);
  t.deepEqual(await writes(from), []);
  t.true(
    (await simCalls(env.sim)).slice(from).some((c) => c.route === 'GET /mc/log/forwarding/{appId}'),
    'the configuration is read on each poll',
  );
});

test.serial('endpoint changed in the spec: exactly one PUT', async (t) => {
  const from = await callCount();
  await apply(
    cappYaml(env.ns, 'logs', specOf('e2e logs', { ...BLOCK, endpoint: '192.0.2.10' }), POLL),
  );
  await waitFor(() => stored(appId)?.endpoint === '192.0.2.10', 30_000, 'endpoint applied');
  await waitCondition(env.ns, 'logs', 'Synced', 'True');
  await sleep(5_000);
  t.deepEqual(await writes(from), ['PUT /mc/log/forwarding/{appId}']);
  t.is(stored(appId)?.token, TOKEN_1, 'the token is unchanged');
});

test.serial('Secret rotation: exactly one PUT with the new token, then none', async (t) => {
  const before = fingerprintOf(await getObject(RESOURCE, env.ns, 'logs'));
  const from = await callCount();
  await apply(secretYaml(env.ns, 'log-token', { token: TOKEN_2 }));
  await waitFor(() => stored(appId)?.token === TOKEN_2, 30_000, 'rotated');
  await waitObject(env.ns, 'logs', (o) => fingerprintOf(o) !== before, 'new fingerprint');
  await sleep(8_000);
  t.deepEqual(await writes(from), ['PUT /mc/log/forwarding/{appId}']);
});

test.serial('drift made on the platform is restored with one PUT', async (t) => {
  await platform('PUT', `/mc/log/forwarding/${appId}`, {
    app: appId,
    type: 'SyslogUdp',
    endpoint: 'elsewhere.example.com',
    port: 514,
    format: 'SyslogRfc3164',
    enabled: false,
  });
  const from = await callCount();
  await waitFor(() => stored(appId)?.endpoint === '192.0.2.10', 30_000, 'restored');
  await sleep(5_000);
  t.deepEqual(await writes(from), ['PUT /mc/log/forwarding/{appId}']);
  t.like(stored(appId), {
    type: 'SyslogTcp',
    port: 6514,
    format: 'SyslogRfc5424',
    enabled: true,
    token: TOKEN_2,
  });
});

test.serial('block removed: one DELETE, status forgets it, nothing read afterwards', async (t) => {
  const from = await callCount();
  await apply(cappYaml(env.ns, 'logs', specOf('e2e logs'), POLL));
  await waitFor(() => stored(appId) === undefined, 30_000, 'deleted');
  await waitObject(env.ns, 'logs', (o) => o.status?.logForwarding === undefined, 'status cleared');
  const after = await callCount();
  await sleep(7_000);
  t.deepEqual(await writes(from), ['DELETE /mc/log/forwarding/{appId}']);
  t.false(
    (await simCalls(env.sim)).slice(after).some((c) => c.path.startsWith('/mc/log/forwarding')),
    'no block and none managed: not read',
  );
});

test.serial(
  'a missing token Secret waits (ReferenceNotReady) and nothing is written',
  async (t) => {
    const from = await callCount();
    await apply(
      cappYaml(
        env.ns,
        'waits',
        specOf('e2e logs waits', {
          ...BLOCK,
          tokenSecretRef: { name: 'later-token', key: 'token' },
        }),
      ),
    );
    const waiting = await waitCondition(env.ns, 'waits', 'Ready', 'False', 'ReferenceNotReady');
    t.regex(
      conditionOf(waiting, 'Ready')?.message ?? '',
      /Secret .*\/later-token \(spec\.logForwarding\.tokenSecretRef\): not found/,
    );
    t.deepEqual(await writes(from), []);
    await apply(secretYaml(env.ns, 'later-token', { token: TOKEN_1 }));
    const id = await appIdOf('waits');
    await waitFor(() => stored(id), 30_000, 'created once the Secret exists');
    t.deepEqual(await writes(from), [
      'POST /mc/apps',
      'PATCH /mc/apps/{appId}',
      'POST /mc/log/forwarding',
    ]);
  },
);

let adoptedId = '';

test.serial(
  'adoption of an app that forwards with the Secret token: no write, fingerprint recorded',
  async (t) => {
    const app = (await platform('POST', '/mc/apps', {
      name: 'e2e logs seeded',
      runtimeType: 'shared',
      autoScaling: { min: 1, max: 1 },
      regionSettings: {},
      containerTemplates: [
        {
          name: 'web',
          imageName: 'nginx',
          imageNamespace: 'library',
          imageTag: '1.27',
          imageRegistryId: 'dockerhub',
        },
      ],
    })) as { id: string };
    adoptedId = app.id;
    await platform('POST', '/mc/log/forwarding', {
      app: adoptedId,
      type: 'SyslogUdp',
      endpoint: 'Seeded.Example.com',
      port: 514,
      format: 'SyslogRfc3164',
      enabled: true,
      token: SEEDED,
    });
    await apply(secretYaml(env.ns, 'seeded-token', { token: SEEDED }));
    const from = await callCount();
    await apply(
      cappYaml(env.ns, 'adopted', {
        ...specOf('e2e logs seeded', {
          type: 'SyslogUDP',
          endpoint: 'seeded.example.com',
          port: 514,
          format: 'SyslogRFC3164',
          tokenSecretRef: { name: 'seeded-token', key: 'token' },
        }),
        adoption: { policy: 'ById', id: adoptedId },
      }),
    );
    await waitCondition(env.ns, 'adopted', 'Ready', 'True');
    const obj = await waitObject(env.ns, 'adopted', (o) => !!fingerprintOf(o), 'fingerprint');
    await sleep(4_000);
    t.deepEqual(await writes(from), [], 'equal token compared in memory: nothing sent');
    t.like((obj.status as { ownership?: unknown }).ownership, { adopted: true });
    t.is(stored(adoptedId)?.token, SEEDED);
  },
);

test.serial('delete with deletionPolicy Delete: the forwarding goes with the app', async (t) => {
  const waitsId = String((await getObject(RESOURCE, env.ns, 'waits'))?.status?.appId);
  const from = await callCount();
  for (const name of ['logs', 'waits']) {
    await deleteObject(RESOURCE, env.ns, name);
    await waitFor(
      async () => (await getObject(RESOURCE, env.ns, name)) === undefined,
      60_000,
      `${name} gone`,
    );
  }
  t.deepEqual(await writes(from), ['DELETE /mc/apps/{appId}', 'DELETE /mc/apps/{appId}']);
  t.is(stored(waitsId), undefined, 'no configuration left behind');
  // The adopted one is left (Orphan by default) with its forwarding.
  await deleteObject(RESOURCE, env.ns, 'adopted');
  await waitFor(
    async () => (await getObject(RESOURCE, env.ns, 'adopted')) === undefined,
    60_000,
    'adopted gone',
  );
  t.truthy(stored(adoptedId), 'an orphaned app keeps its forwarding');
});

test.serial('export -> create the token Secret -> apply: Ready, no write', async (t) => {
  const client = new CdnClient({ credentials: API_KEY, baseUrl: env.sim.url });
  try {
    const result = await exportAccount(client, {
      namespace: env.ns,
      kinds: new Set(['ContainerApp']),
      deletionPolicy: 'Orphan',
      account: {},
      secretEnvPattern: /SECRET/,
      customCertificates: 'omit',
    });
    t.deepEqual(
      result.objects.map((o) => o.name),
      ['e2e-logs-seeded'],
    );
    const spec = result.objects[0]!.manifest.spec as { logForwarding?: Record<string, unknown> };
    t.deepEqual(spec.logForwarding, {
      enabled: true,
      type: 'SyslogUDP',
      endpoint: 'Seeded.Example.com',
      port: 514,
      format: 'SyslogRFC3164',
      tokenSecretRef: { name: 'e2e-logs-seeded-log-forwarding', key: 'token' },
    });
    t.false(JSON.stringify(result).includes(SEEDED), 'the token is never exported');
    t.true(result.notes.some((n) => n.includes('log forwarding tokens are never exported')));
    t.deepEqual(
      result.secrets.map((s) => [s.name, s.keys, s.filledBy]),
      [['e2e-logs-seeded-log-forwarding', ['token'], 'user']],
    );
    await apply(secretYaml(env.ns, 'e2e-logs-seeded-log-forwarding', { token: SEEDED }));
    const from = await callCount();
    await apply(JSON.stringify(result.objects[0]!.manifest));
    await waitCondition(env.ns, 'e2e-logs-seeded', 'Ready', 'True');
    await waitObject(env.ns, 'e2e-logs-seeded', (o) => !!fingerprintOf(o), 'fingerprint');
    await sleep(4_000);
    t.deepEqual(await writes(from), [], 'applying the export writes nothing');
  } finally {
    client.close();
  }
});

test.serial(
  'a token the platform echoes back reaches no log, event, object or metric',
  async (t) => {
    await apply(secretYaml(env.ns, 'echo-token', { token: ECHO }));
    await setFaults(env.sim, {
      echoBodyRoutes: ['POST /mc/log/forwarding', 'PUT /mc/log/forwarding/{appId}'],
    });
    try {
      await apply(
        cappYaml(
          env.ns,
          'echo',
          specOf('e2e logs echo', {
            ...BLOCK,
            tokenSecretRef: { name: 'echo-token', key: 'token' },
          }),
        ),
      );
      const failed = await waitCondition(env.ns, 'echo', 'Synced', 'False', undefined, 60_000);
      t.regex(conditionOf(failed, 'Synced')?.message ?? '', /REDACTED|redacted/);
      const echoed = (await simCalls(env.sim)).filter(
        (c) => c.status === 400 && c.route === 'POST /mc/log/forwarding',
      );
      t.true(echoed.length > 0, 'the platform echoed the body');
      await sleep(3_000);
      assertAbsent(
        t,
        [
          ['operator log', env.operator.output()],
          ['events', await eventsText(env.ns)],
          ['objects', await kubectl(['get', RESOURCE, '-n', env.ns, '-o', 'json'])],
          ['metrics', await env.operator.metrics()],
        ],
        // Every token of this file: the platform also returned them in its GET answers.
        [ECHO, TOKEN_1, TOKEN_2, SEEDED],
      );
      t.true(
        env.operator.output().includes('[REDACTED]'),
        'the echoed value was masked, not absent',
      );
    } finally {
      await setFaults(env.sim, {});
    }
  },
);

// Runs last (serial): every request of this file.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
