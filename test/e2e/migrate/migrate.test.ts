/**
 * `cdnctl migrate` end to end (issue 45), with cdn-sim and a real operator serving the
 * families' groups:
 * 1. the examples as they were on 72f93ad (fixtures/, all in `cdn.operator.io/v1alpha1`) are
 *    migrated into a temporary copy, and the top-level ones, applied, become Ready;
 * 2. live: every example object is made in the new groups (platform resources created), let go
 *    with deletionPolicy Orphan, and made again in the legacy group as the older operator left
 *    it (finalizer, status with the ids); `cdnctl migrate --live` then moves them all: each new
 *    object Ready with the same ids, no platform write in cdn-sim's call log, the legacy
 *    objects gone.
 */
import test from 'ava';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { passwordFingerprint } from '../../../src/controllers/containerregistry/credentials.js';
import { crdNameOf, isOwnApiVersion } from '../../../src/controllers/kind-names.js';
import { exampleKinds, findKind, KINDS } from '../../../src/controllers/kinds.js';
import { KubeClient, isKubeStatus, loadKubeConfig } from '../../../src/runtime/kube-client.js';
import { runCdnctl } from '../support/cdnctl.js';
import {
  apply,
  conditionOf,
  getObject,
  kubectl,
  patchObject,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { simAdmin } from '../support/shield-zones.js';
import { secretYaml, startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';
import {
  createLegacyObject,
  legacyCrds,
  withLegacyNames,
  installLegacyCrds,
  legacyPath,
  removeLegacyCrds,
  type Manifest,
} from './legacy.js';

const FIXTURES = resolve(fileURLToPath(import.meta.url), '../fixtures/examples-72f93ad');
const API_KEY = 'e2e-migrate-key';
const REGISTRY_PASSWORD = 'e2e-registry-token';
const READY_MS = 120_000;

let env: OperatorEnv;
let kube: KubeClient;
let migrated = '';

test.before(async () => {
  env = await startOperatorEnv('migrate', API_KEY);
  kube = await KubeClient.create(loadKubeConfig(process.env.KUBECONFIG));
  migrated = mkdtempSync(join(tmpdir(), 'cdnctl-migrate-e2e-'));
  cpSync(FIXTURES, migrated, { recursive: true });
  // The container registry example reads its password from this Secret.
  await apply(secretYaml(env.ns, 'ghcr-pull', { password: REGISTRY_PASSWORD }));
});

test.after.always(async () => {
  await removeLegacyCrds();
  kube?.close();
  await env?.stop();
  if (migrated) rmSync(migrated, { recursive: true, force: true });
});

const cdnctl = (args: string[]): ReturnType<typeof runCdnctl> =>
  runCdnctl(env.sim.url, API_KEY, args);

/** Our objects in a manifest file. */
function ourObjects(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as Manifest)
    .filter((m) => isOwnApiVersion(m?.apiVersion) && findKind(m.kind) !== undefined);
}

const resourceOf = (m: Pick<Manifest, 'kind'>): string => crdNameOf(findKind(m.kind)!);

async function waitReady(m: Manifest): Promise<KubeJson> {
  let last: KubeJson | undefined;
  return waitFor(
    async () => {
      last = await getObject(resourceOf(m), env.ns, m.metadata.name);
      return conditionOf(last, 'Ready')?.status === 'True' ? last : undefined;
    },
    READY_MS,
    `${m.kind} ${m.metadata.name} Ready`,
    500,
  ).catch((err: unknown) => {
    const c = conditionOf(last, 'Ready');
    throw new Error(
      `${(err as Error).message}; last Ready: ${c?.reason ?? ''} ${c?.message ?? ''}`,
    );
  });
}

/** The platform ids a status records (`pullZoneId`, `dnsZoneId`, ...). */
function idsOf(status: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(status ?? {}).filter(([k]) => /Id$/.test(k)));
}

const FILES = [
  'pullzoneconfig.yaml',
  'shieldpolicy.yaml',
  'containerapp.yaml',
  'containers/containerregistry.yaml',
  'dns/dnszone.yaml',
  'dns/dnsrecord.yaml',
  'shield/shieldwafrule.yaml',
  'shield/shieldratelimit.yaml',
  'shield/shieldaccesslist.yaml',
  'storage/storagezone.yaml',
];

/**
 * The keys and values the kinds' field moves write (`dnsZoneRef`, `BeginsWith`), and the key of
 * a value nested where it stood (`dnssec: { enabled: true }`).
 */
const MOVED = new Set(
  KINDS.flatMap((k) => k.legacyMoves ?? []).flatMap((m) => [
    m.to.split('.').pop()?.replace('[]', '') ?? '',
    ...(m.to.startsWith(`${m.from}.`) ? [m.from.split('.').pop() ?? ''] : []),
    ...Object.values(m.values ?? {}).map(String),
  ]),
);

/** True for a line whose key or value a field move wrote. */
function isMovedLine(line: string): boolean {
  const [key = '', value = ''] = line.replace(/^\s*(- )?/, '').split(/:\s*/, 2);
  return MOVED.has(key) || MOVED.has(value.replace(/^['"]|['"]$/g, '').split(' ')[0] ?? '');
}

test.serial(
  'cdnctl migrate of examples/ as on 72f93ad: the manifests apply and become Ready',
  async (t) => {
    const first = await cdnctl(['migrate', migrated]);
    t.is(first.code, 0, first.stderr);
    t.regex(first.stdout, new RegExp(`${FILES.length} of ${FILES.length} file\\(s\\) migrated`));
    for (const f of FILES) {
      const text = readFileSync(join(migrated, f), 'utf8');
      t.notRegex(text, /cdn\.operator\.io\/v1alpha1/, `${f}: nothing left in the legacy group`);
      const before = readFileSync(join(FIXTURES, f), 'utf8').split('\n');
      const after = text.split('\n');
      t.is(after.length, before.length, `${f}: same lines`);
      const changed = after.filter((line, i) => line !== before[i]);
      t.deepEqual(
        changed.filter((l) => !l.startsWith('apiVersion: ') && !isMovedLine(l)),
        [],
        `${f}: only apiVersion lines and the moved fields changed`,
      );
    }
    const second = await cdnctl(['migrate', migrated]);
    t.regex(second.stdout, /0 of \d+ file\(s\) migrated/, 'a second run changes nothing');

    const top = exampleKinds().map((k) => k.example!);
    t.true(top.length > 0);
    for (const f of top) await kubectl(['apply', '-n', env.ns, '-f', join(migrated, f)]);
    for (const f of top) for (const m of ourObjects(join(migrated, f))) await waitReady(m);
  },
);

/** The uids of an object's owners. */
function ownerUids(obj: KubeJson): string[] {
  const meta = obj.metadata as { ownerReferences?: { uid: string }[] };
  return (meta.ownerReferences ?? []).map((r) => r.uid);
}

/**
 * `status` as the older operator wrote it for its object `legacyUid`: the v1alpha1 field names,
 * and the registry password's fingerprint salted with the object's uid (ContainerRegistry's
 * credentials.ts).
 */
function asOldOperatorWrote(
  kind: string,
  status: Record<string, unknown>,
  uid: string,
  legacyUid: string,
): Record<string, unknown> {
  status = withLegacyNames(kind, { status }).status as Record<string, unknown>;
  if (kind !== 'ContainerRegistry') return status;
  if (status.passwordFingerprint !== passwordFingerprint(uid, REGISTRY_PASSWORD)) {
    throw new Error('cannot restate the registry status: its fingerprint is not the password');
  }
  return { ...status, passwordFingerprint: passwordFingerprint(legacyUid, REGISTRY_PASSWORD) };
}

/** An example object made in its new group: its legacy manifest, status and uid. */
interface Recorded {
  manifest: Manifest;
  status: Record<string, unknown>;
  uid: string;
}

/**
 * Points the ownerReferences of the namespace's Secrets from the uids in `from` to the
 * objects in `to`, as the older operator left them (it wrote them for the legacy objects).
 */
async function reownSecrets(
  from: Map<string, string>,
  to: Map<string, { apiVersion: string; kind: string; metadata: { name: string; uid: string } }>,
): Promise<number> {
  const list = JSON.parse(await kubectl(['get', 'secrets', '-n', env.ns, '-o', 'json'])) as {
    items: KubeJson[];
  };
  let moved = 0;
  for (const s of list.items) {
    const refs = ownerUids(s);
    const owner = refs.map((uid) => from.get(uid)).find((k) => k !== undefined);
    const legacy = owner === undefined ? undefined : to.get(owner);
    if (!legacy) continue;
    const ownerReferences = [
      {
        apiVersion: legacy.apiVersion,
        kind: legacy.kind,
        name: legacy.metadata.name,
        uid: legacy.metadata.uid,
        controller: true,
        blockOwnerDeletion: false,
      },
    ];
    await patchObject('secrets', env.ns, s.metadata.name, { metadata: { ownerReferences } });
    moved++;
  }
  return moved;
}

/** Every example object in the new groups, Ready; their statuses by `Kind/name`. */
async function createAllInNewGroups(): Promise<Map<string, Recorded>> {
  const [zones, ...rest] = [FILES.slice(0, 3), FILES.slice(3)];
  for (const f of zones) await kubectl(['apply', '-n', env.ns, '-f', join(migrated, f)]);
  // The example WAF rule needs a plan above Basic (its comment says so): the user upgrades.
  const policy = await waitReady(ourObjects(join(migrated, 'shieldpolicy.yaml'))[0]!);
  const zoneId = String(policy.status?.shieldZoneId);
  await simAdmin(env.sim, 'PUT', `/_sim/shield-zones/${zoneId}/plan`, { planType: 3 });
  for (const f of rest.flat()) await kubectl(['apply', '-n', env.ns, '-f', join(migrated, f)]);
  const recorded = new Map<string, Recorded>();
  for (const f of FILES) {
    const legacy = ourObjects(join(FIXTURES, f));
    for (const m of ourObjects(join(migrated, f))) {
      const obj = await waitReady(m);
      const old = legacy.find((o) => o.kind === m.kind && o.metadata.name === m.metadata.name)!;
      recorded.set(`${m.kind}/${m.metadata.name}`, {
        manifest: old,
        status: obj.status ?? {},
        uid: obj.metadata.uid ?? '',
      });
    }
  }
  return recorded;
}

/** Lets every object go with deletionPolicy Orphan (dependents first) and waits until gone. */
async function orphanAll(manifests: readonly Manifest[]): Promise<void> {
  const order = (m: Manifest): number => KINDS.findIndex((k) => k.kind === m.kind);
  const byDependents = [...manifests].sort((a, b) => order(b) - order(a));
  for (const m of byDependents) {
    await patchObject(resourceOf(m), env.ns, m.metadata.name, {
      spec: { deletionPolicy: 'Orphan' },
    });
    await kubectl(['delete', resourceOf(m), m.metadata.name, '-n', env.ns, '--wait=false']);
  }
  for (const m of byDependents) {
    await waitFor(
      async () => (await getObject(resourceOf(m), env.ns, m.metadata.name)) === undefined,
      READY_MS,
      `${m.kind} ${m.metadata.name} gone`,
      500,
    );
  }
}

test.serial('cdnctl migrate --live moves every kind with no platform write', async (t) => {
  const recorded = await createAllInNewGroups();
  const kinds = new Set([...recorded.values()].map((r) => r.manifest.kind));
  const legacyPlurals = new Set(legacyCrds().map((c) => c.spec.names.plural));
  t.deepEqual(
    [...kinds].sort(),
    KINDS.filter((k) => k.controller && legacyPlurals.has(k.plural))
      .map((k) => k.kind)
      .sort(),
    'every reconciled kind the legacy group served takes part',
  );
  const manifests = [...recorded.values()].map((r) => r.manifest);
  await orphanAll(manifests);
  await installLegacyCrds();
  const legacy = new Map<string, Awaited<ReturnType<typeof createLegacyObject>>>();
  for (const [key, { manifest, status, uid }] of recorded) {
    const statusOf = (legacyUid: string): Record<string, unknown> =>
      asOldOperatorWrote(manifest.kind, status, uid, legacyUid);
    legacy.set(key, await createLegacyObject(kube, manifest, env.ns, statusOf));
  }
  const uids = new Map([...recorded].map(([key, r]) => [r.uid, key]));
  t.true((await reownSecrets(uids, legacy)) > 0, 'the storage zone password Secret is owned');

  const since = Date.now();
  const plan = await cdnctl(['migrate', '--live', '--dry-run', '-n', env.ns]);
  t.is(plan.code, 0, plan.stdout + plan.stderr);
  t.is(plan.stdout.match(/^would move /gm)?.length, recorded.size, plan.stdout);

  const run = await cdnctl(['migrate', '--live', '-n', env.ns, '--ready-timeout-seconds', '120']);
  t.log(run.stdout);
  t.is(run.code, 0, run.stdout + run.stderr);
  t.regex(run.stdout, new RegExp(`^${recorded.size} object\\(s\\) moved, 0 failed$`, 'm'));

  const writes = env.sim.calls
    .snapshot(since)
    .log.filter((c) => c.method !== 'GET')
    .map((c) => `${c.method} ${c.path} ${c.status}`);
  t.deepEqual(writes, [], 'no platform write from the plan to the end of the move');

  for (const { manifest, status } of recorded.values()) {
    const what = `${manifest.kind} ${manifest.metadata.name}`;
    const now = await getObject(resourceOf(manifest), env.ns, manifest.metadata.name);
    t.is(conditionOf(now, 'Ready')?.status, 'True', `${what} Ready`);
    t.deepEqual(idsOf(now?.status), idsOf(status), `${what} keeps its ids`);
    t.truthy(Object.keys(idsOf(status)).length, `${what} records an id`);
    t.is(now?.metadata.annotations?.['cdn.operator.io/paused'], undefined, `${what} unpaused`);
    const gone = await kube
      .request({ method: 'GET', path: legacyPath(manifest, env.ns) })
      .then(() => false)
      .catch((err: unknown) => isKubeStatus(err, 404));
    t.true(gone, `${what}: the legacy object is gone`);
  }

  const secret = await getObject('secrets', env.ns, 'site-files-storagezone');
  const zone = await getObject(resourceOf({ kind: 'StorageZone' }), env.ns, 'site-files');
  t.deepEqual(
    secret && ownerUids(secret),
    [zone?.metadata.uid],
    'the password Secret is handed to the new StorageZone (the garbage collector keeps it)',
  );

  const again = await cdnctl(['migrate', '--live', '-n', env.ns]);
  t.is(again.code, 0, again.stderr);
  t.regex(again.stdout, /^0 object\(s\) moved, 0 failed$/m, 'a second run finds nothing to move');
});
