/**
 * `cdnctl export` of edge scripts end to end on the real kube-apiserver, a real operator
 * process and cdn-sim (strict against the compute document): an account holding a published
 * middleware script (code with CRLF, tabs and trailing spaces, variables, a secret), a
 * standalone script whose code was set after its live release, a never-published script and a
 * DNS script is exported by the real cdnctl into a directory; the listed Secret is created
 * with the platform's value; `kubectl apply -f DIR` into the operator's fresh namespace adopts
 * every script (Ready, the same live release) with **zero platform writes**; the secret value
 * appears in no output; `cdnctl diff` of the directory then reports no change.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CdnClient } from '../../../src/cdn/client.js';
import { runCdnctl } from '../support/cdnctl.js';
import { conditionOf, kubectl, kubectlRaw, waitFor, type KubeJson } from '../support/kube.js';
import { secretYaml, startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';

const RESOURCE = 'edgescripts.compute.cdn.operator.io';
const API_KEY = 'e2e-edgescript-export-key';
const SECRET_VALUE = 'e2e-es/secret+value=5d2a&';
const TRICKY_CODE = 'export default () => new Response("a");\r\n\tconst x = 1;   \n\nOff\n';

let env: OperatorEnv;
let dir = '';

test.before(async () => {
  env = await startOperatorEnv('e2e-esx', API_KEY);
  dir = mkdtempSync(join(tmpdir(), 'cdnctl-es-export-'));
});

test.after.always(async () => {
  if (env) await kubectlRaw(['delete', RESOURCE, '--all', '-n', env.ns, '--timeout=60s']);
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The writes cdn-sim received so far. */
function writes(): string[] {
  return env.sim.calls
    .snapshot()
    .log.filter((c) => c.method !== 'GET')
    .map((c) => c.route);
}

interface Seeded {
  /** Script name -> its live release uuid (undefined: never published). */
  live: Map<string, string | undefined>;
}

async function seed(cdn: CdnClient): Promise<Seeded> {
  const add = async (Name: string, ScriptType: 0 | 1 | 2, Code: string): Promise<number> =>
    Number((await cdn.addEdgeScript({ Name, ScriptType, Code })).Id);
  const mw = await add('mw-published', 2, TRICKY_CODE);
  await cdn.upsertEdgeScriptVariable(mw, { Name: 'MODE', DefaultValue: 'on', Required: true });
  await cdn.upsertEdgeScriptVariable(mw, { Name: 'REGION', DefaultValue: 'eu' });
  await cdn.upsertEdgeScriptSecret(mw, { Name: 'API_TOKEN', Secret: SECRET_VALUE });
  await cdn.publishEdgeScript(mw, {});
  const site = await add('site', 1, 'export default () => new Response("v1");');
  await cdn.publishEdgeScript(site, {});
  await cdn.setEdgeScriptCode(site, 'export default () => new Response("v2, held");');
  await add('draft', 2, 'export default () => new Response("draft");');
  await add('dns-script', 0, 'export default () => "dns";');
  const live = new Map<string, string | undefined>();
  for (const [name, id] of [
    ['mw-published', mw],
    ['site', site],
  ] as const) {
    live.set(name, (await cdn.getActiveEdgeScriptRelease(id))?.Uuid ?? undefined);
  }
  live.set('draft', undefined);
  return { live };
}

/** True when the apiserver's EdgeScript schema has `spec.secrets` (issue 46's secrets). */
async function crdHasSecrets(): Promise<boolean> {
  const crd = JSON.parse(await kubectl(['get', 'crd', RESOURCE, '-o', 'json'])) as {
    spec: { versions: { schema: { openAPIV3Schema: Record<string, never> } }[] };
  };
  const schema = JSON.stringify(crd.spec.versions.map((v) => v.schema));
  return /"secrets":\{/.test(schema);
}

async function allReady(expected: number): Promise<KubeJson[] | undefined> {
  const list = JSON.parse(await kubectl(['get', RESOURCE, '-n', env.ns, '-o', 'json'])) as {
    items: KubeJson[];
  };
  if (list.items.length !== expected) return undefined;
  const ready = list.items.every((o) => {
    const c = conditionOf(o, 'Ready');
    return c?.status === 'True' && c.observedGeneration === o.metadata.generation;
  });
  return ready ? list.items : undefined;
}

test.serial(
  'export -> create the Secret -> kubectl apply into a fresh namespace: adopted, Ready, zero platform writes',
  async (t) => {
    t.timeout(5 * 60_000);
    const cdn = new CdnClient({ credentials: API_KEY, baseUrl: env.sim.url });
    t.teardown(() => cdn.close());
    const seeded = await seed(cdn);

    const exported = await runCdnctl(env.sim.url, API_KEY, [
      'export',
      '-n',
      env.ns,
      '--kinds',
      'EdgeScript',
      '-o',
      dir,
    ]);
    t.is(exported.code, 0, exported.stderr);
    const files = readdirSync(dir).sort();
    t.deepEqual(files, [
      'configmap-draft-code.yaml',
      'configmap-mw-published-code.yaml',
      'configmap-site-code.yaml',
      'edgescript-draft.yaml',
      'edgescript-mw-published.yaml',
      'edgescript-site.yaml',
      'secrets-to-create.txt',
    ]);
    const everything = [exported.stdout, exported.stderr]
      .concat(files.map((f) => readFileSync(join(dir, f), 'utf8')))
      .join('\n');
    t.false(everything.includes(SECRET_VALUE), 'the secret value is in the export');
    const listed = readFileSync(join(dir, 'secrets-to-create.txt'), 'utf8');
    t.regex(listed, /create secret generic mw-published-secrets --from-literal=API_TOKEN=<value>/);

    // The user creates the listed Secret with the platform's value, then applies.
    await kubectl(
      ['apply', '-f', '-'],
      secretYaml(env.ns, 'mw-published-secrets', { API_TOKEN: SECRET_VALUE }),
    );
    const strict = await crdHasSecrets();
    if (!strict)
      t.log('spec.secrets is not in the EdgeScript CRD yet: applied with --validate=false');
    const before = writes();
    const rejected = env.sim.calls.snapshot().rejectedByDocument.count;
    await kubectl(['apply', ...(strict ? [] : ['--validate=false']), '-f', dir]);

    const items = await waitFor(() => allReady(3), 120_000, 'every exported script Ready', 1000);
    // Polls and watches settle: a late write would show here.
    await sleep(5_000);
    t.deepEqual(writes().slice(before.length), [], 'applying the export wrote to the platform');
    t.is(env.sim.calls.snapshot().rejectedByDocument.count, rejected);

    const byName = new Map(items.map((o) => [o.metadata.name, o]));
    for (const [name, live] of seeded.live) {
      const status = byName.get(name)?.status ?? {};
      t.is(status.activeRelease, live, `${name}: the live release is unchanged`);
      t.truthy(status.scriptId, `${name}: adopted`);
    }
    const configMap = JSON.parse(
      await kubectl(['get', 'configmap', 'mw-published-code', '-n', env.ns, '-o', 'json']),
    ) as { data: Record<string, string> };
    t.is(configMap.data.code, TRICKY_CODE, 'the code reached the cluster byte for byte');

    const diff = await runCdnctl(env.sim.url, API_KEY, ['diff', '-f', dir]);
    t.is(diff.code, 0, diff.stdout + diff.stderr);
    t.regex(diff.stdout, /3 object\(s\): 3 unchanged/);
    t.deepEqual(writes().slice(before.length), [], 'cdnctl diff wrote to the platform');
  },
);
