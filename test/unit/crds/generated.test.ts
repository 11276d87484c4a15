/**
 * crds/ holds exactly one generated CRD per kind of the list of kinds, each equal to the
 * generator's output (hack/generate-crds.ts), and every CRD carries the kind's names.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { renderCrd } from '../../../hack/generate-crds.js';
import { crdFileOf, crdNameOf } from '../../../src/controllers/kind-names.js';
import { KINDS } from '../../../src/controllers/kinds.js';
import { shippedCrd } from '../../support/crds.js';
import { ROOT } from '../packaging/tools.js';

test('crds/ holds one file per kind, nothing else', async (t) => {
  const files = (await readdir(join(ROOT, 'crds'))).filter((f) => f.endsWith('.yaml')).sort();
  t.deepEqual(files, KINDS.map((k) => basename(crdFileOf(k))).sort());
});

for (const kind of KINDS) {
  test(`${kind.kind}: the committed CRD equals the generator output (run hack/generate-crds.ts)`, async (t) => {
    const { path, text } = await renderCrd(kind);
    const committed = await readFile(join(ROOT, path), 'utf8');
    t.true(committed.startsWith('# GENERATED FILE'));
    t.true(committed === text, `${path} is out of date: run node --import tsx hack/generate-crds.ts`);
  });

  test(`${kind.kind}: the rules every write evaluates (root, spec, status) compile no pattern`, (t) => {
    // The apiserver plans each rule again per evaluation and compiles its `matches` patterns
    // while planning; rules on these three objects run on every create, update and status
    // write whatever the object holds (issue 32). Patterns belong in `pattern`, or in rules on
    // optional fields.
    const schema = shippedCrd(kind).spec.versions[0].schema.openAPIV3Schema;
    const levels = { root: schema, spec: schema.properties?.spec, status: schema.properties?.status };
    const offending = Object.entries(levels).flatMap(([level, node]) =>
      ((node?.['x-kubernetes-validations'] ?? []) as Array<{ rule: string }>)
        .filter((r) => r.rule.includes('.matches('))
        .map((r) => `${level}: ${r.rule}`),
    );
    t.deepEqual(offending, []);
  });

  test(`${kind.kind}: names, scope and the status subresource come from the kind module`, (t) => {
    const crd = shippedCrd(kind);
    t.is(crd.metadata.name, crdNameOf(kind));
    t.like(crd.spec.names, { kind: kind.kind, plural: kind.plural, listKind: `${kind.kind}List` });
    t.deepEqual(crd.spec.names.shortNames, kind.shortNames);
    t.is(crd.spec.scope, kind.scope);
    t.deepEqual(crd.spec.versions[0].subresources, { status: {} });
  });
}
