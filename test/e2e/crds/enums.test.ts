/**
 * Every enum value of every CRD field, applied through kubectl to the real apiserver (server
 * dry-run), the way users apply manifests: kubectl and the apiserver read YAML 1.1, where an
 * unquoted `Off` in a CRD's enum list is the boolean false, so `stickySessionType: "Off"` was
 * refused with `supported values: "false", "true"`. Each value is set on the kind's example
 * (examples/*.yaml) and sent as JSON, so the value reaches the apiserver exactly as written.
 * A value passes when the apiserver does not refuse it as unsupported; the untouched example
 * must be accepted outright, so a broken base cannot hide a refusal.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { applyAllCrds } from '../support/crds.js';
import { createNamespace, deleteNamespace, kubectlRaw } from '../support/kube.js';

type Json = Record<string, unknown>;
type Segment = string | 0;

const ROOT = join(import.meta.dirname, '..', '..', '..');

interface EnumField {
  path: Segment[];
  values: unknown[];
}

/** Every enum in a schema, with the path to it (array items at index 0). */
function enumFields(schema: Json, path: Segment[] = []): EnumField[] {
  const out: EnumField[] = [];
  if (Array.isArray(schema.enum)) out.push({ path, values: schema.enum as unknown[] });
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    out.push(...enumFields(child, [...path, name]));
  }
  if (schema.items) out.push(...enumFields(schema.items as Json, [...path, 0]));
  return out;
}

/** Sets `value` at `path`, creating objects and a first array item on the way. */
function setAt(target: Json, path: Segment[], value: unknown): void {
  let node: Record<string | number, unknown> = target;
  path.forEach((segment, i) => {
    if (i === path.length - 1) {
      node[segment] = value;
      return;
    }
    const nextIsIndex = path[i + 1] === 0;
    const current = node[segment];
    if (nextIsIndex) {
      if (!Array.isArray(current) || current.length === 0) node[segment] = [{}];
    } else if (typeof current !== 'object' || current === null) {
      node[segment] = {};
    }
    node = node[segment] as Record<string | number, unknown>;
  });
}

interface Kind {
  crd: Json;
  example: Json;
}

/** Kinds whose example is not in examples/ (an admin's object, not a tenant's). */
const BUILT_IN_EXAMPLES: Record<string, Json> = {
  CdnAccount: {
    apiVersion: 'accounts.cdn.operator.io/v1beta1',
    kind: 'CdnAccount',
    metadata: { name: 'e2e-enums-account' },
    spec: {
      secretRef: { name: 'bunny-api-key' },
      namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists' }] },
    },
  },
};

function kinds(): Kind[] {
  // Every example under examples/, in any folder (storage/, dns/, shield/, containers/...):
  // a kind's example may sit in a folder of its own when it needs more than the chart gives.
  const examples = (readdirSync(join(ROOT, 'examples'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(ROOT, 'examples', f))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Json),
    );
  return readdirSync(join(ROOT, 'crds'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => parse(readFileSync(join(ROOT, 'crds', f), 'utf8')) as Json)
    .map((crd) => {
      const kind = String(((crd.spec as Json).names as Json).kind);
      const example = examples.find((e) => e.kind === kind) ?? BUILT_IN_EXAMPLES[kind];
      if (!example) throw new Error(`no example of ${kind} in examples/`);
      return { crd, example };
    });
}

/**
 * One server dry-run of many objects (a List): one kubectl start for every value of a kind
 * instead of one per value, which kept this file over its time limit on a 2-core machine.
 */
async function dryRunAll(
  ns: string | undefined,
  objs: Json[],
): Promise<{ code: number; stderr: string }> {
  const items = objs.map((obj) => ({
    ...obj,
    metadata: { ...(obj.metadata as Json), ...(ns ? { namespace: ns } : {}) },
  }));
  return kubectlRaw(
    ['apply', '--dry-run=server', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items }),
  );
}

let ns = '';
test.before(async () => {
  await applyAllCrds();
  ns = await createNamespace('e2e-enums');
});
test.after.always(async () => {
  if (ns) await deleteNamespace(ns);
});

for (const { crd, example } of kinds()) {
  const kind = String(example.kind);
  const version = (crd.spec as Json).versions as Json[];
  const schema = ((version[0]!.schema as Json).openAPIV3Schema as Json).properties as Json;
  const fields = enumFields(schema.spec as Json, ['spec']);

  test(`${kind}: every enum value of every field is accepted by the apiserver`, async (t) => {
    const where = (crd.spec as Json).scope === 'Namespaced' ? ns : undefined;
    const base = await dryRunAll(where, [example]);
    t.is(base.code, 0, `the example itself is accepted: ${base.stderr}`);
    t.true(fields.length > 0, 'the kind has enum fields');
    const baseName = String((example.metadata as Json).name);
    const cases = fields.flatMap((field) =>
      field.values.map((value) => ({
        name: field.path.map((s) => (s === 0 ? '[0]' : s)).join('.'),
        value,
        field,
      })),
    );
    const objs = cases.map((c, i) => {
      const obj = structuredClone(example);
      setAt(obj, c.field.path, c.value);
      (obj.metadata as Json).name = `${baseName}-e${i}`;
      return obj;
    });
    const res = await dryRunAll(where, objs);
    // kubectl names the object in each error line: map refusals back to field and value.
    const refused = cases
      .map((c, i) => ({ c, line: refusalOf(res.stderr, `${baseName}-e${i}`) }))
      .filter((r) => r.line !== undefined)
      .map((r) => `${r.c.name}=${JSON.stringify(r.c.value)}: ${r.line ?? ''}`);
    t.deepEqual(refused, []);
    t.log(`${cases.length} values of ${fields.length} fields`);
  });
}

/** The "Unsupported value" error line about object `name`, if kubectl printed one. */
function refusalOf(stderr: string, name: string): string | undefined {
  return stderr
    .split('\n')
    .find((l) => /Unsupported value/.test(l) && new RegExp(`"${name}"`).test(l));
}
