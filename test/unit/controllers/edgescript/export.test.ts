/**
 * `cdnctl export` and `cdnctl diff` of edge scripts. The rendering of one script, table by
 * table (export-script.ts, pure): the code's ConfigMap, the code byte for byte through the YAML
 * kubectl reads, the variables, the secrets (names and references only), the publish policy
 * and what is left out. Then the whole account against an in-process cdn-sim: DNS scripts left
 * out, no seeded secret value in the result, and the exported manifests compared by the
 * operator's own client (observe) and by `cdnctl diff`'s planner: nothing to write, the code
 * shown by digest once it changes.
 */
import { adoptionIdOf } from '../../../../src/controllers/shared/ownership-schema.js';
import test from 'ava';
import { parse } from 'yaml';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { EdgeScriptRelease } from '../../../../src/cdn/edge-script-types.js';
import { exportAccount } from '../../../../src/cli/export/export-account.js';
import { toYaml11 } from '../../../../src/cli/export/yaml.js';
import { codeHashOf } from '../../../../src/controllers/edgescript/code.js';
import {
  CODE_KEY,
  exportEdgeScript,
  type ScriptExport,
  type ScriptExportInput,
} from '../../../../src/controllers/edgescript/export-script.js';
import {
  edgeScriptResource,
  type EdgeScriptState,
} from '../../../../src/controllers/edgescript/index.js';
import { planEdgeScript } from '../../../../src/controllers/edgescript/plan.js';
import type { EdgeScript } from '../../../../src/controllers/edgescript/types.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import { NameAllocator } from '../../../../src/controllers/shared/export-names.js';
import {
  CONFIG_MAP_MAX_BYTES,
  type ExportOptions,
  type ExportResult,
} from '../../../../src/controllers/shared/manifest-export.js';
import type { PlanContext } from '../../../../src/controllers/shared/manifest-plan.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import { startSimulator } from '../../../../src/simulator/server.js';

const OPTS: ExportOptions = {
  namespace: 'team-a',
  kinds: new Set(['EdgeScript']),
  deletionPolicy: 'Orphan',
  account: { accountRef: { name: 'team-a' } },
  secretEnvPattern: /SECRET/,
  customCertificates: 'omit',
};

const LIVE_UUID = '0b6f0c1e-3a55-4c43-9d3c-6c1b1a2f9e01';

function release(code: string): EdgeScriptRelease {
  return { Id: 1, Uuid: LIVE_UUID, Code: code, Status: 1 };
}

function stateOf(over: Partial<EdgeScriptState> = {}): EdgeScriptState {
  const code = 'export default () => 1;\n';
  return { Id: 7, Name: 'Shop Edge', ScriptType: 2, code, active: release(code), ...over };
}

function render(input: Partial<ScriptExportInput> & { state: EdgeScriptState }): ScriptExport {
  const names = { configMaps: new NameAllocator(), secrets: new NameAllocator() };
  return exportEdgeScript({ secrets: [], name: 'shop-edge', ...input }, OPTS, names);
}

interface Spec {
  adoption?: { policy: string; id?: number };
  name?: string;
  scriptType?: string;
  code?: { configMapKeyRef?: { name: string; key: string }; inline?: string };
  publish?: string;
  release?: string;
  env?: unknown[];
  secrets?: unknown[];
  deletionPolicy?: string;
  accountRef?: unknown;
}

function specOf(out: ScriptExport): Spec {
  return (out.objects.find((o) => o.kind === 'EdgeScript')?.manifest as { spec: Spec }).spec;
}

test('a published script: its ConfigMap beside it, adopted by id, publish Always', (t) => {
  const out = render({ state: stateOf() });
  t.deepEqual(
    out.objects.map((o) => `${o.kind}/${o.name}`),
    ['ConfigMap/shop-edge-code', 'EdgeScript/shop-edge'],
    'the ConfigMap comes first, so kubectl apply -f DIR creates it before the script',
  );
  t.deepEqual(out.objects[0]!.manifest, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'shop-edge-code', namespace: 'team-a' },
    data: { [CODE_KEY]: 'export default () => 1;\n' },
  });
  t.like(out.objects[1]!.manifest, {
    apiVersion: 'compute.cdn.operator.io/v1beta1',
    kind: 'EdgeScript',
    metadata: { name: 'shop-edge', namespace: 'team-a' },
  });
  t.deepEqual(specOf(out), {
    adoption: { policy: 'ById', id: 7 },
    name: 'Shop Edge',
    scriptType: 'Middleware',
    code: { configMapKeyRef: { name: 'shop-edge-code', key: CODE_KEY } },
    publish: 'Always',
    accountRef: { name: 'team-a' },
    deletionPolicy: 'Orphan',
  });
  t.deepEqual(out.notes, []);
  t.deepEqual(out.secrets, []);
});

const PUBLISH_CASES: {
  reason: string;
  state: Partial<EdgeScriptState>;
  publish: string;
  release?: string;
  note?: RegExp;
}[] = [
  {
    reason: 'the live release holds the code: Always publishes nothing',
    state: {},
    publish: 'Always',
  },
  {
    reason: 'code set after the live release: Held on the live release, or Always would publish',
    state: { code: 'export default () => 2;' },
    publish: 'Held',
    release: LIVE_UUID,
    note: /publish: Held with release .* not the live release's/,
  },
  {
    reason: 'never published: Held without a release, or Always would publish',
    state: { active: undefined },
    publish: 'Held',
    note: /publish: Held: the script has no live release/,
  },
];

for (const c of PUBLISH_CASES) {
  test(`publish policy: ${c.reason}`, (t) => {
    const out = render({ state: stateOf(c.state) });
    const spec = specOf(out);
    t.is(spec.publish, c.publish);
    t.is(spec.release, c.release);
    if (c.note) t.regex(out.notes.join('\n'), c.note);
    else t.deepEqual(out.notes, []);
  });
}

// Code kubectl must read back exactly: CRLF, NEL, LS, DEL, a BOM, tabs, trailing spaces,
// YAML 1.1 words, leading blank lines and indentation, no final newline.
const CODE_CASES: [string, string][] = [
  ['plain module with a final newline', 'export default function () {\n  return 1;\n}\n'],
  ['no final newline, two blank lines at the end', 'const a = 1;\n\n\n'],
  ['leading indentation and blank line', '\n    const a = "x";\nexport default a;'],
  ['tabs and trailing spaces', 'if (a) {\n\treturn 1;   \n}\t\n'],
  ['CRLF line ends', 'const a = 1;\r\nconst b = 2;\r\n'],
  ['NEL, LS, PS, DEL and a BOM', '\ufeffconst s = "\u0085\u2028\u2029\u007f";\n'],
  ['a YAML 1.1 word only', 'Off'],
  ['non-ASCII', 'const greeting = "Grüße, 世界 🌍";\n'],
  ['a document marker inside', 'const a = `\n---\n...\n`;\n'],
];

for (const [why, code] of CODE_CASES) {
  test(`code reads back byte for byte through the YAML kubectl reads: ${why}`, (t) => {
    const out = render({ state: stateOf({ code, active: release(code) }) });
    const configMap = out.objects[0]!.manifest;
    const read = parse(toYaml11(configMap), { version: '1.1' }) as { data: Record<string, string> };
    t.is(read.data[CODE_KEY], code);
    t.is(codeHashOf(read.data[CODE_KEY]!), codeHashOf(code));
    t.is(specOf(out).publish, 'Always');
  });
}

const ENV_CASES: {
  reason: string;
  variables: EdgeScriptState['EdgeScriptVariables'];
  env: unknown[] | undefined;
  note?: RegExp;
}[] = [
  { reason: 'no variables: spec.env left out (unmanaged)', variables: [], env: undefined },
  {
    reason: 'literals in id order; required only when set; a null default is empty',
    variables: [
      { Id: 3, Name: 'REGION', DefaultValue: 'eu', Required: false },
      { Id: 1, Name: 'MODE', DefaultValue: 'Off', Required: true },
      { Id: 2, Name: 'EMPTY', DefaultValue: null },
    ],
    env: [
      { name: 'MODE', value: 'Off', required: true },
      { name: 'EMPTY', value: '' },
      { name: 'REGION', value: 'eu' },
    ],
  },
  {
    reason: 'more than the CRD takes: left unmanaged, with a note',
    variables: Array.from({ length: 65 }, (_, i) => ({ Id: i, Name: `V${i}`, DefaultValue: 'x' })),
    env: undefined,
    note: /variables left unmanaged .* has 65, more than the 64/,
  },
];

for (const c of ENV_CASES) {
  test(`variables: ${c.reason}`, (t) => {
    const out = render({ state: stateOf({ EdgeScriptVariables: c.variables }) });
    t.deepEqual(specOf(out).env, c.env);
    if (c.note) t.regex(out.notes.join('\n'), c.note);
  });
}

const SECRET_CASES: {
  reason: string;
  secrets: { Id: number; Name: string }[];
  keys: string[];
}[] = [
  { reason: 'none: no spec.secrets, no Secret to create', secrets: [], keys: [] },
  {
    reason: 'names that are Secret keys are kept, in id order',
    secrets: [
      { Id: 2, Name: 'DB_PASSWORD' },
      { Id: 1, Name: 'api.token' },
    ],
    keys: ['api.token', 'DB_PASSWORD'],
  },
  {
    reason: 'characters a Secret key refuses become _, a collision gets the secret id',
    secrets: [
      { Id: 4, Name: 'my secret' },
      { Id: 5, Name: 'my/secret' },
      { Id: 6, Name: '..' },
    ],
    keys: ['my_secret', 'secret-5', 'secret-6'],
  },
];

for (const c of SECRET_CASES) {
  test(`secrets: ${c.reason}`, (t) => {
    const out = render({ state: stateOf(), secrets: c.secrets });
    const spec = specOf(out);
    if (c.keys.length === 0) {
      t.is(spec.secrets, undefined);
      t.deepEqual(out.secrets, []);
      return;
    }
    t.deepEqual(
      spec.secrets,
      c.secrets
        .sort((a, b) => a.Id - b.Id)
        .map((s, i) => ({
          name: s.Name,
          valueFrom: { secretKeyRef: { name: 'shop-edge-secrets', key: c.keys[i] } },
        })),
    );
    t.deepEqual(out.secrets, [
      {
        name: 'shop-edge-secrets',
        type: 'Opaque',
        keys: c.keys,
        purpose: `EdgeScript shop-edge: the script's secrets ${c.keys.join(', ')} (never exported: the platform does not return them)`,
        filledBy: 'user',
      },
    ]);
  });
}

const LEFT_OUT: { reason: string; state: Partial<EdgeScriptState>; exported: boolean }[] = [
  { reason: 'no code: nothing to put in the ConfigMap', state: { code: null }, exported: false },
  {
    reason: 'code one byte over what a ConfigMap holds with its key',
    state: { code: 'x'.repeat(CONFIG_MAP_MAX_BYTES - CODE_KEY.length + 1) },
    exported: false,
  },
  {
    reason: 'code exactly as large as a ConfigMap holds with its key',
    state: { code: 'x'.repeat(CONFIG_MAP_MAX_BYTES - CODE_KEY.length) },
    exported: true,
  },
];

for (const c of LEFT_OUT) {
  test(`left out or not: ${c.reason}`, (t) => {
    const out = render({ state: stateOf({ ...c.state, active: undefined }) });
    t.is(out.objects.length, c.exported ? 2 : 0);
    if (!c.exported)
      t.regex(out.notes[0] ?? '', /^EdgeScript: script 7 \("Shop Edge"\) left out: /);
  });
}

// The account against cdn-sim: what export reads, and what applying it would write.

const API_KEY = 'unit-edgescript-export';
const SECRET_VALUE = 'unit-es-secret/value+41=';

interface Seeded {
  client: CdnClient;
  result: ExportResult;
  close: () => Promise<void>;
  writes: () => number;
}

async function seedAndExport(): Promise<Seeded> {
  const sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  const client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY });
  const add = (Name: string, ScriptType: 0 | 1 | 2, Code: string): Promise<number> =>
    client.addEdgeScript({ Name, ScriptType, Code }).then((s) => Number(s.Id));
  const published = await add('mw published', 2, 'export default () => "a";\r\n\ttrailing  \n');
  await client.publishEdgeScript(published, {});
  await client.upsertEdgeScriptVariable(published, { Name: 'MODE', DefaultValue: 'on' });
  await client.upsertEdgeScriptSecret(published, { Name: 'API_TOKEN', Secret: SECRET_VALUE });
  const held = await add('site', 1, 'export default () => "v1";');
  await client.publishEdgeScript(held, {});
  await client.setEdgeScriptCode(held, 'export default () => "v2";');
  await add('never published', 2, 'export default () => "x";');
  await add('dns', 0, 'export default () => "dns";');
  const result = await exportAccount(client, OPTS);
  const writes = (): number => sim.calls.snapshot().log.filter((c) => c.method !== 'GET').length;
  return {
    client,
    result,
    writes,
    close: async () => {
      client.close();
      await sim.close();
    },
  };
}

function configMapsOf(result: ExportResult): Map<string, Record<string, string>> {
  const maps = new Map<string, Record<string, string>>();
  for (const o of result.objects.filter((x) => x.kind === 'ConfigMap')) {
    maps.set(o.name, (o.manifest as { data: Record<string, string> }).data);
  }
  return maps;
}

function objectOfManifest(manifest: Record<string, unknown>): EdgeScript {
  const m = manifest as unknown as EdgeScript;
  return { ...m, metadata: { ...m.metadata, uid: `uid-${m.metadata.name}` } };
}

test('the account: standalone and middleware scripts, never DNS, never a secret value; applying writes nothing', async (t) => {
  const s = await seedAndExport();
  t.teardown(s.close);
  const { result } = s;
  t.deepEqual(
    result.objects.map((o) => `${o.kind}/${o.name}`),
    [
      'ConfigMap/mw-published-code',
      'EdgeScript/mw-published',
      'ConfigMap/site-code',
      'EdgeScript/site',
      'ConfigMap/never-published-code',
      'EdgeScript/never-published',
    ],
    'the DNS script is not exported',
  );
  t.false(JSON.stringify(result).includes(SECRET_VALUE), 'no secret value in the export');
  const policies = result.objects
    .filter((o) => o.kind === 'EdgeScript')
    .map((o) => {
      const spec = (o.manifest as { spec: Spec }).spec;
      return [o.name, spec.scriptType, spec.publish, spec.release === undefined ? '-' : 'live'];
    });
  t.deepEqual(policies, [
    ['mw-published', 'Middleware', 'Always', '-'],
    ['site', 'Standalone', 'Held', 'live'],
    ['never-published', 'Middleware', 'Held', '-'],
  ]);
  t.deepEqual(
    result.secrets.map((x) => [x.name, x.keys]),
    [['mw-published-secrets', ['API_TOKEN']]],
  );
  t.true(result.notes.some((n) => n.includes('secret values are never exported')));
  const maps = configMapsOf(result);
  const writesBefore = s.writes();
  const log = pino({ level: 'silent' });
  for (const o of result.objects.filter((x) => x.kind === 'EdgeScript')) {
    const obj = objectOfManifest(o.manifest);
    const ext = new CrudExternal(
      edgeScriptResource({ client: s.client, account: 'unit' }, obj, {
        readConfigMap: (_ns, name) => Promise.resolve(maps.get(name)),
      }),
    );
    const seen = await ext.observe(obj, {
      externalId: String(adoptionIdOf(obj.spec)),
      createPending: false,
      log,
      signal: new AbortController().signal,
    });
    t.true(seen.exists, o.name);
    t.deepEqual(seen.diff, [], `${o.name}: the operator would write nothing`);
  }
  t.is(s.writes(), writesBefore, 'observing wrote nothing');
});

test('cdnctl diff: an export compares equal; a code change shows digests, not the code', async (t) => {
  const s = await seedAndExport();
  t.teardown(s.close);
  const objects = s.result.objects.map((o) => o.manifest as unknown as ManagedObject);
  const ctx = (list: ManagedObject[]): PlanContext => ({
    objectsOf: (kind: string) => list.filter((o) => o.kind === kind),
  });
  for (const obj of objects.filter((o) => o.kind === 'EdgeScript')) {
    const plan = await planEdgeScript(s.client, obj, ctx(objects));
    t.is(plan.action, 'none', `${obj.metadata.name}: ${JSON.stringify(plan)}`);
  }
  const newCode = 'export default () => "changed, and never printed";';
  const edited = objects.map((o) =>
    o.metadata.name === 'mw-published-code' ? { ...o, data: { [CODE_KEY]: newCode } } : o,
  );
  const script = objects.find((o) => o.metadata.name === 'mw-published')!;
  const plan = await planEdgeScript(s.client, script, ctx(edited));
  t.is(plan.action, 'update');
  const code = plan.diffs.find((d) => d.field === 'code');
  t.is(code?.desired, codeHashOf(newCode));
  t.regex(code?.live ?? '', /^sha256:[0-9a-f]{64}$/);
  t.false(JSON.stringify(plan).includes('never printed'), 'the code is not in the plan');
  t.true(
    plan.diffs.some((d) => d.field === 'release'),
    'publish: Always publishes it',
  );
  const missing = await planEdgeScript(
    s.client,
    script,
    ctx(objects.filter((o) => o.kind !== 'ConfigMap')),
  );
  t.is(missing.action, 'skipped');
  t.regex(missing.note ?? '', /mw-published-code.*compare it together with the ConfigMaps/);
  t.false(JSON.stringify(missing).includes(SECRET_VALUE));
});
