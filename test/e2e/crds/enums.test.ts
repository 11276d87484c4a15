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

function kinds(): Kind[] {
  const examples = readdirSync(join(ROOT, 'examples'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(ROOT, 'examples', f), 'utf8')).map((d) => d.toJS() as Json),
    );
  return readdirSync(join(ROOT, 'crds'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => parse(readFileSync(join(ROOT, 'crds', f), 'utf8')) as Json)
    .map((crd) => {
      const kind = ((crd.spec as Json).names as Json).kind;
      const example = examples.find((e) => e.kind === kind);
      if (!example) throw new Error(`no example of ${String(kind)} in examples/`);
      return { crd, example };
    });
}

async function dryRun(ns: string, obj: Json): Promise<{ code: number; stderr: string }> {
  const body = { ...obj, metadata: { ...(obj.metadata as Json), namespace: ns } };
  return kubectlRaw(['apply', '--dry-run=server', '-f', '-'], JSON.stringify(body));
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
    const base = await dryRun(ns, example);
    t.is(base.code, 0, `the example itself is accepted: ${base.stderr}`);
    t.true(fields.length > 0, 'the kind has enum fields');
    const refused: string[] = [];
    for (const field of fields) {
      for (const value of field.values) {
        const obj = structuredClone(example);
        setAt(obj, field.path, value);
        const res = await dryRun(ns, obj);
        const name = field.path.map((s) => (s === 0 ? '[0]' : s)).join('.');
        if (res.code !== 0 && /Unsupported value/.test(res.stderr)) {
          refused.push(`${name}=${JSON.stringify(value)}: ${res.stderr.trim()}`);
        }
      }
    }
    t.deepEqual(refused, []);
    t.log(`${fields.reduce((n, f) => n + f.values.length, 0)} values of ${fields.length} fields`);
  });
}
