/**
 * `spec.adoption` of every kind that adopts, on the real apiserver (issue 45): adoption by id is
 * `{policy: ById, id}`, and the CRD's CEL rules hold the block together — `id` is required with
 * `ById`, refused with `ByName`, and immutable once set (like the top-level id fields it
 * replaced). Each kind's example (examples/*.yaml) is the base; the cases are sent as one server
 * dry-run, then the immutability check patches an object actually stored (no operator runs).
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { applyAllCrds } from '../support/crds.js';
import { createNamespace, deleteNamespace, kubectlRaw } from '../support/kube.js';

type Json = Record<string, unknown>;

const ROOT = join(import.meta.dirname, '..', '..', '..');

interface AdoptingKind {
  kind: string;
  plural: string;
  example: Json;
  /** A valid id of the kind's id type. */
  id: number | string;
  /** Another valid id. */
  otherId: number | string;
}

/** The kinds whose CRD has `spec.adoption.id`, each with its example. */
function adoptingKinds(): AdoptingKind[] {
  const examples = (readdirSync(join(ROOT, 'examples'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(ROOT, 'examples', f), 'utf8')).map(
        (d) => d.toJS() as Json,
      ),
    );
  return readdirSync(join(ROOT, 'crds'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => parse(readFileSync(join(ROOT, 'crds', f), 'utf8')) as Json)
    .flatMap((crd) => {
      const spec = crd.spec as Json;
      const names = spec.names as Json;
      const root = ((spec.versions as Json[])[0]!.schema as Json).openAPIV3Schema as Json;
      const specSchema = (root.properties as Json).spec as Json;
      const adoption = (specSchema.properties as Json | undefined)?.adoption as Json | undefined;
      const idSchema = (adoption?.properties as Json | undefined)?.id as Json | undefined;
      const example = examples.find((e) => e.kind === names.kind);
      if (!idSchema || !example) return [];
      const text = idSchema.type === 'string';
      return [
        {
          kind: String(names.kind),
          plural: String(names.plural),
          example,
          id: text ? 'adopted-app-1' : 4242,
          otherId: text ? 'adopted-app-2' : 4243,
        },
      ];
    });
}

/** The example with `adoption` set (and a PullZoneConfig's spec.name left out: id or name). */
function withAdoption(k: AdoptingKind, name: string, adoption: Json): Json {
  const obj = structuredClone(k.example);
  const spec = obj.spec as Json;
  if (k.kind === 'PullZoneConfig') delete spec.name;
  spec.adoption = adoption;
  obj.metadata = { ...(obj.metadata as Json), name, namespace: ns };
  return obj;
}

/** The error line kubectl printed about object `name`, if any. */
function errorOf(stderr: string, name: string): string | undefined {
  return stderr.split('\n').find((l) => l.includes(`"${name}"`));
}

let ns = '';
test.before(async () => {
  await applyAllCrds();
  ns = await createNamespace('e2e-adoption');
});
test.after.always(async () => {
  if (ns) await deleteNamespace(ns);
});

const KINDS = adoptingKinds();

test('every kind that adopts is covered, from its example', (t) => {
  t.deepEqual(KINDS.map((k) => k.kind).sort(), [
    'ContainerApp',
    'ContainerRegistry',
    'DnsRecord',
    'DnsZone',
    'EdgeScript',
    'PullZoneConfig',
    'ShieldAccessList',
    'ShieldRateLimit',
    'ShieldWafRule',
    'StorageZone',
    'VideoLibrary',
  ]);
});

for (const k of KINDS) {
  const base = String((k.example.metadata as Json).name);
  const cases: Array<{ why: string; adoption: Json; refused?: RegExp }> = [
    { why: 'ById with an id is accepted', adoption: { policy: 'ById', id: k.id } },
    { why: 'ByName alone is accepted', adoption: { policy: 'ByName' } },
    {
      why: 'ById without an id is refused',
      adoption: { policy: 'ById' },
      refused: /adoption\.id is required with policy ById/,
    },
    {
      why: 'ByName with an id is refused',
      adoption: { policy: 'ByName', id: k.id },
      refused: /adoption\.id is set only with policy ById/,
    },
  ];

  test(`${k.kind}: adoption.id is required with ById and only there`, async (t) => {
    const objs = cases.map((c, i) => withAdoption(k, `${base}-a${i}`, c.adoption));
    const res = await kubectlRaw(
      ['apply', '--dry-run=server', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objs }),
    );
    for (const [i, c] of cases.entries()) {
      const line = errorOf(res.stderr, `${base}-a${i}`);
      if (c.refused) t.regex(line ?? '', c.refused, c.why);
      else t.is(line, undefined, c.why);
    }
  });

  test(`${k.kind}: adoption.id is immutable once set`, async (t) => {
    const name = `${base}-immutable`;
    const made = await kubectlRaw(
      ['apply', '-f', '-'],
      JSON.stringify(withAdoption(k, name, { policy: 'ById', id: k.id })),
    );
    t.is(made.code, 0, made.stderr);
    const patch = { spec: { adoption: { policy: 'ById', id: k.otherId } } };
    const changed = await kubectlRaw([
      'patch',
      k.plural,
      name,
      '-n',
      ns,
      '--type',
      'merge',
      '-p',
      JSON.stringify(patch),
    ]);
    t.not(changed.code, 0);
    t.regex(changed.stderr, /adoption\.id is immutable/);
  });
}
