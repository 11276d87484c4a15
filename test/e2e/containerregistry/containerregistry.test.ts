/**
 * ContainerRegistry end to end on a real kube-apiserver, a real operator process watching two
 * namespaces and cdn-sim (strict): create with the password from a Secret, a rotation sends
 * exactly one replace, drift restored, a ContainerApp pulling through registryRef gets the
 * registry's id, another namespace is refused (the registry by id and a ContainerApp naming
 * its id) with no platform write, adoption by id and by name, export -> apply -> no write,
 * delete, redaction of a password the platform echoes back, and nothing cdn-sim rejected.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CdnClient } from '../../../src/cdn/client.js';
import { exportAccount } from '../../../src/cli/export/export-account.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import {
  accountJson,
  defaultAccountArgs,
  deleteAccount,
  namespacesSelector,
} from '../support/account.js';
import { applyAllCrds } from '../support/crds.js';
import {
  apply,
  conditionOf,
  createNamespace,
  deleteNamespace,
  deleteObject,
  getObject,
  kubectl,
  kubectlRaw,
  waitFor,
  waitForCondition,
  type KubeJson,
} from '../support/kube.js';
import { secretYaml } from '../support/operator-env.js';
import { assertAbsent } from '../support/redaction.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';

const REG = 'containerregistries.containers.cdn.operator.io';
const CAPP = 'containerapps.containers.cdn.operator.io';
const API_KEY = 'e2e-registry-key';
// Characters that base64 and URL encoding change, so each encoding is a distinct needle.
const PASS_1 = 'e2e-reg/pass+one=7c1d!';
const PASS_2 = 'e2e-reg/pass+two=4b9e?';
const ECHO_PASS = 'e2e-echo/secret+pass=0a5f&';

let sim: SimulatorHandle;
let op: OperatorProcess;
let nsA = '';
let nsB = '';

test.before(async () => {
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  nsA = await createNamespace('e2e-creg-a');
  nsB = await createNamespace('e2e-creg-b');
  await apply(secretYaml(nsA, 'cdn-credentials', { apiKey: API_KEY }));
  // One account open to both namespaces: ownership, not credentials, keeps them apart.
  await apply(accountJson(nsA, 'cdn-credentials', namespacesSelector(nsA, nsB)));
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  op = await startOperator({
    kubeconfig,
    args: ['--namespace', `${nsA},${nsB}`, '--api-url', sim.url, ...defaultAccountArgs(nsA)],
  });
});

test.after.always(async () => {
  await op?.stop();
  await sim?.close();
  for (const ns of [nsA, nsB]) if (ns) await deleteNamespace(ns);
  if (nsA) await deleteAccount(nsA);
});

function objectJson(kind: string, ns: string, name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind(kind),
    kind,
    // A short poll so that drift made outside Kubernetes is seen within the test.
    metadata: { name, namespace: ns, annotations: { 'cdn.operator.io/poll-interval': '3s' } },
    spec,
  });
}

function registrySpec(
  displayName: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: displayName,
    type: 'GitHub',
    username: 'e2e-bot',
    passwordSecretRef: { name: 'reg-pass', key: 'password' },
    ...extra,
  };
}

function appSpec(name: string, registry: Record<string, unknown>): Record<string, unknown> {
  return {
    name,
    autoScaling: { min: 1, max: 1 },
    containerTemplates: [
      { name: 'web', imageName: 'shop', imageNamespace: 'acme', imageTag: '1.0', ...registry },
    ],
  };
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function registryRecord(id: number): Record<string, unknown> | undefined {
  return sim.state.collections.of('registries').get(String(id));
}

/** Registry and app writes (method + route template) the operator sent, from call `from` on. */
function writes(from: number, prefix = '/mc/'): string[] {
  return sim.calls
    .snapshot()
    .log.slice(from)
    .filter((c) => c.method !== 'GET' && c.path.startsWith(prefix))
    .map((c) => c.route);
}

function callCount(): number {
  return sim.calls.snapshot().log.length;
}

async function ready(ns: string, name: string, resource = REG): Promise<KubeJson> {
  return waitForCondition(resource, ns, name, 'Ready', 'True', undefined, 60_000);
}

async function gone(resource: string, ns: string, name: string): Promise<void> {
  await deleteObject(resource, ns, name);
  await waitFor(
    async () => (await getObject(resource, ns, name)) === undefined,
    60_000,
    `${name} gone`,
  );
}

/** Adds a registry straight on cdn-sim (made outside Kubernetes). */
async function seedRegistry(displayName: string, password: string): Promise<number> {
  const res = await fetch(`${sim.url}/mc/registries`, {
    method: 'POST',
    headers: { AccessKey: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({
      displayName,
      type: 'dockerHub',
      passwordCredentials: { userName: 'seed-user', password },
    }),
  });
  return ((await res.json()) as { id: number }).id;
}

test.serial(
  'create: one add with the Secret password; status holds a fingerprint only',
  async (t) => {
    await apply(secretYaml(nsA, 'reg-pass', { password: PASS_1 }));
    const from = callCount();
    await apply(objectJson('ContainerRegistry', nsA, 'ghcr', registrySpec('e2e-ghcr')));
    const obj = await ready(nsA, 'ghcr');
    const id = Number(obj.status?.registryId);
    // The create goes out under the provisional name; the same pass renames it (docs/kit.md).
    t.deepEqual(writes(from), ['POST /mc/registries', 'PUT /mc/registries/{registryId}']);
    t.like(registryRecord(id), {
      displayName: 'e2e-ghcr',
      userName: 'e2e-bot',
      hostName: 'ghcr.io',
      passwordDigest: sha256(PASS_1),
    });
    t.like(obj.status, { name: 'e2e-ghcr', hostname: 'ghcr.io', username: 'e2e-bot' });
    t.regex(String(obj.status?.passwordFingerprint), /^sha256:[0-9a-f]{64}$/);
    t.false(JSON.stringify(obj).includes(PASS_1));
    const table = await kubectl(['get', 'creg', 'ghcr', '-n', nsA]);
    t.regex(table, new RegExp(`ghcr\\s+True\\s+True\\s+${id}\\s+ghcr\\.io`));
  },
);

test.serial('rotation: a new Secret value is sent exactly once', async (t) => {
  const id = Number((await ready(nsA, 'ghcr')).status?.registryId);
  const fingerprint = (await getObject(REG, nsA, 'ghcr'))?.status?.passwordFingerprint;
  const from = callCount();
  await apply(secretYaml(nsA, 'reg-pass', { password: PASS_2 }));
  await waitFor(() => registryRecord(id)?.passwordDigest === sha256(PASS_2), 30_000, 'rotated');
  await waitFor(
    async () => (await getObject(REG, nsA, 'ghcr'))?.status?.passwordFingerprint !== fingerprint,
    30_000,
    'new fingerprint in status',
  );
  // Several polls (3 s) pass: nothing more is sent.
  await sleep(8_000);
  t.deepEqual(writes(from), ['PUT /mc/registries/{registryId}']);
});

test.serial('drift made outside Kubernetes is restored, the password is not re-sent', async (t) => {
  const id = Number((await ready(nsA, 'ghcr')).status?.registryId);
  await fetch(`${sim.url}/mc/registries/${id}`, {
    method: 'PUT',
    headers: { AccessKey: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ displayName: 'renamed-by-hand', type: 'gitHub' }),
  });
  const from = callCount();
  await waitFor(() => registryRecord(id)?.displayName === 'e2e-ghcr', 30_000, 'name restored');
  const sent = sim.calls
    .snapshot()
    .log.slice(from)
    .filter((c) => c.method === 'PUT');
  t.is(sent.length, 1);
  t.is(registryRecord(id)?.passwordDigest, sha256(PASS_2), 'password unchanged');
});

test.serial('a ContainerApp with registryRef waits, then pulls from the registry id', async (t) => {
  await apply(
    objectJson(
      'ContainerApp',
      nsA,
      'shop',
      appSpec('e2e-shop', { registryRef: { name: 'later' } }),
    ),
  );
  const waiting = await waitForCondition(
    CAPP,
    nsA,
    'shop',
    'Ready',
    'False',
    'ReferenceNotReady',
    60_000,
  );
  t.regex(conditionOf(waiting, 'Ready')?.message ?? '', /ContainerRegistry .*\/later/);
  await apply(objectJson('ContainerRegistry', nsA, 'later', registrySpec('e2e-later')));
  const id = Number((await ready(nsA, 'later')).status?.registryId);
  const app = await ready(nsA, 'shop', CAPP);
  const stored = sim.state.apps.get(String(app.status?.appId));
  const templates = stored?.app.containerTemplates as { imageRegistryId?: string }[];
  t.is(templates[0]?.imageRegistryId, String(id));
});

test.serial(
  'another namespace: the registry id and an app naming it are refused, 0 writes',
  async (t) => {
    const id = Number((await ready(nsA, 'ghcr')).status?.registryId);
    await apply(secretYaml(nsB, 'reg-pass', { password: 'team-b-guess' }));
    const from = callCount();
    await apply(
      objectJson(
        'ContainerRegistry',
        nsB,
        'steal',
        registrySpec('x', { adoption: { policy: 'ById', id } }),
      ),
    );
    const stolen = await waitForCondition(
      REG,
      nsB,
      'steal',
      'Synced',
      'False',
      'AlreadyManaged',
      60_000,
    );
    t.regex(conditionOf(stolen, 'Synced')?.message ?? '', new RegExp(`${nsA}/ghcr`));
    await apply(
      objectJson(
        'ContainerApp',
        nsB,
        'borrow',
        appSpec('e2e-borrow', { imageRegistryId: String(id) }),
      ),
    );
    const borrow = await waitForCondition(
      CAPP,
      nsB,
      'borrow',
      'Synced',
      'False',
      'ReferenceNotAllowed',
      60_000,
    );
    t.regex(conditionOf(borrow, 'Synced')?.message ?? '', /imageRegistryId/);
    await sleep(2_000);
    t.deepEqual(writes(from), [], 'no platform write for either');
    t.is(registryRecord(id)?.passwordDigest, sha256(PASS_2));
    await gone(REG, nsB, 'steal');
    await gone(CAPP, nsB, 'borrow');
    t.truthy(registryRecord(id), 'deleting the refused object deletes nothing');
  },
);

test.serial('adoption by id and by name: no create, no write, Orphan by default', async (t) => {
  const byId = await seedRegistry('e2e-seeded-id', 'seeded-password-1');
  const byName = await seedRegistry('E2E-Seeded-Name', 'seeded-password-2');
  await apply(secretYaml(nsA, 'seeded-1', { password: 'seeded-password-1' }));
  await apply(secretYaml(nsA, 'seeded-2', { password: 'seeded-password-2' }));
  const from = callCount();
  await apply(
    objectJson('ContainerRegistry', nsA, 'adopt-id', {
      ...registrySpec('e2e-seeded-id', { adoption: { policy: 'ById', id: byId } }),
      type: 'DockerHub',
      username: 'seed-user',
      passwordSecretRef: { name: 'seeded-1', key: 'password' },
    }),
  );
  // The platform's case rule for registry names: exact, so a lower-case name finds nothing.
  await apply(
    objectJson('ContainerRegistry', nsA, 'adopt-lower', {
      ...registrySpec('e2e-seeded-name', { adoption: { policy: 'ByName' } }),
      passwordSecretRef: { name: 'seeded-2', key: 'password' },
    }),
  );
  await waitForCondition(REG, nsA, 'adopt-lower', 'Synced', 'False', 'NotFound', 60_000);
  await gone(REG, nsA, 'adopt-lower');
  await apply(
    objectJson('ContainerRegistry', nsA, 'adopt-name', {
      ...registrySpec('E2E-Seeded-Name', { adoption: { policy: 'ByName' } }),
      type: 'DockerHub',
      username: 'seed-user',
      passwordSecretRef: { name: 'seeded-2', key: 'password' },
    }),
  );
  const a = await ready(nsA, 'adopt-id');
  const b = await ready(nsA, 'adopt-name');
  t.is(Number(a.status?.registryId), byId);
  t.is(Number(b.status?.registryId), byName);
  t.like((a.status as { ownership?: unknown }).ownership, {
    adopted: true,
    deletionPolicy: 'Orphan',
  });
  await sleep(4_000);
  t.deepEqual(writes(from), [], 'adopting writes nothing');
  await gone(REG, nsA, 'adopt-id');
  await gone(REG, nsA, 'adopt-name');
  t.truthy(registryRecord(byId), 'an adopted registry is left in place');
  t.truthy(registryRecord(byName));
});

test.serial('delete: the app first, then the registries with Delete', async (t) => {
  const ids = await Promise.all(
    ['ghcr', 'later'].map(async (n) => Number((await getObject(REG, nsA, n))?.status?.registryId)),
  );
  await gone(CAPP, nsA, 'shop');
  await gone(REG, nsA, 'ghcr');
  await gone(REG, nsA, 'later');
  for (const id of ids) t.is(registryRecord(id), undefined, `registry ${id} deleted`);
});

test.serial('export -> create the Secrets -> apply: Ready with no write', async (t) => {
  const client = new CdnClient({ credentials: API_KEY, baseUrl: sim.url });
  const result = await exportAccount(client, {
    namespace: nsA,
    kinds: new Set(['ContainerRegistry']),
    deletionPolicy: 'Orphan',
    account: {},
    secretEnvPattern: /SECRET/,
    customCertificates: 'omit',
  });
  const names = result.objects.map((o) => o.name).sort();
  t.deepEqual(names, ['e2e-seeded-id', 'e2e-seeded-name']);
  t.true(result.notes.some((n) => n.includes('passwords are never exported')));
  t.false(JSON.stringify(result).includes('seeded-password'), 'no password exported');
  const passwords: Record<string, string> = {
    'e2e-seeded-id': 'seeded-password-1',
    'e2e-seeded-name': 'seeded-password-2',
  };
  for (const s of result.secrets) {
    const owner = result.objects.find((o) => JSON.stringify(o.manifest).includes(s.name));
    await apply(secretYaml(nsA, s.name, { password: passwords[owner?.name ?? ''] ?? '' }));
  }
  const from = callCount();
  for (const o of result.objects) await apply(JSON.stringify(o.manifest));
  for (const o of result.objects) await ready(nsA, o.name);
  await sleep(4_000);
  t.deepEqual(writes(from), [], 'applying the export writes nothing');
});

test.serial('an echoed password reaches no log, event, status or metric', async (t) => {
  await apply(secretYaml(nsA, 'echo-pass', { password: ECHO_PASS }));
  sim.faults.set({ echoBodyRoutes: ['POST /mc/registries', 'PUT /mc/registries/{registryId}'] });
  try {
    await apply(
      objectJson('ContainerRegistry', nsA, 'echo', {
        ...registrySpec('e2e-echo'),
        passwordSecretRef: { name: 'echo-pass', key: 'password' },
      }),
    );
    await waitForCondition(REG, nsA, 'echo', 'Synced', 'False', undefined, 60_000);
    const echoed = sim.calls
      .snapshot()
      .log.filter((c) => c.status === 400 && c.route === 'POST /mc/registries');
    t.true(echoed.length > 0, 'the platform echoed the body');
    await sleep(3_000);
    const places: Array<[string, string]> = [
      ['operator log', op.output()],
      ['events', await kubectl(['get', 'events', '-n', nsA, '-o', 'json'])],
      ['objects', await kubectl(['get', `${REG},${CAPP}`, '-n', nsA, '-o', 'json'])],
      ['metrics', await op.metrics()],
    ];
    assertAbsent(t, places, [ECHO_PASS, PASS_1, PASS_2]);
    t.true(op.output().includes('[REDACTED]'), 'the echoed value was masked, not absent');
  } finally {
    sim.faults.set({});
  }
});

test.serial(
  'the apiserver refuses both or neither registry field, and an id with adoption by name',
  async (t) => {
    const cases: Array<[string, string, RegExp]> = [
      [
        'both',
        objectJson(
          'ContainerApp',
          nsA,
          'both',
          appSpec('both', { imageRegistryId: '1', registryRef: { name: 'x' } }),
        ),
        /exactly one of imageRegistryId/,
      ],
      [
        'neither',
        objectJson('ContainerApp', nsA, 'neither', appSpec('neither', {})),
        /exactly one of imageRegistryId/,
      ],
      [
        'an id with adoption by name',
        objectJson(
          'ContainerRegistry',
          nsA,
          'two',
          registrySpec('two', { adoption: { policy: 'ByName', id: 5 } }),
        ),
        /adoption\.id is set only with policy ById/,
      ],
    ];
    for (const [why, manifest, message] of cases) {
      const res = await kubectlRaw(['apply', '-f', '-'], manifest);
      t.not(res.code, 0, why);
      t.regex(res.stderr, message, why);
    }
  },
);

// Runs last (serial): every request of this file.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
