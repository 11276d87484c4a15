/**
 * Each kind's TypeScript types and its CRD describe the same fields: `<Kind>Spec` and
 * `<Kind>Status` (exported by `src/controllers/<kind>/types.ts`) are compared with the
 * generated CRD's spec and status property by property, nested, with the same shapes and
 * enum values, and a spec field the code treats as always present must be required by the CRD.
 * Fields a field table describes instead of a TS type (pull zone settings) are pinned below.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { KINDS } from '../../../src/controllers/kinds.js';
import { builtCrd, rootSchema, type Json } from '../../support/crds.js';
import { REPO_ROOT } from '../../support/openapi-docs.js';
import { compareTypeWithSchema, TypeReader } from '../../support/type-schema.js';

/** Fields whose TS type is opaque on purpose, and what describes them. */
const OPAQUE: Record<string, string> = {
  'PullZoneConfig.spec.settings': 'the settings field table (pullzoneconfig/fields.ts)',
  'CdnPolicy.spec.pullZone': "a PullZoneConfig spec, checked by that kind's CRD when applied",
  'CdnPolicy.spec.shieldPolicy': "a ShieldPolicy spec, checked by that kind's CRD when applied",
};

const typesFile = (kind: string): string =>
  join(REPO_ROOT, 'src/controllers', kind.toLowerCase(), 'types.ts');

const FIXTURE = join(REPO_ROOT, 'test/unit/controllers/fixtures/drifted-types.ts');
const reader = new TypeReader([...KINDS.map((k) => typesFile(k.kind)), FIXTURE]);

for (const kind of KINDS) {
  for (const part of ['spec', 'status'] as const) {
    const name = `${kind.kind}${part === 'spec' ? 'Spec' : 'Status'}`;
    test(`${kind.kind}: ${name} and the CRD's ${part} agree field by field`, async (t) => {
      t.true(
        existsSync(typesFile(kind.kind)),
        `src/controllers/${kind.kind.toLowerCase()}/types.ts`,
      );
      const type = reader.exportedType(typesFile(kind.kind), name);
      if (!type) return t.fail(`types.ts exports no ${name}`);
      const schema = rootSchema(await builtCrd(kind)).properties[part] as Json;
      const { mismatches, opaque } = compareTypeWithSchema(
        reader,
        type,
        schema,
        `${kind.kind}.${part}`,
        part === 'spec',
      );
      t.deepEqual(mismatches, []);
      const pinned = Object.keys(OPAQUE).filter((p) => p.startsWith(`${kind.kind}.${part}.`));
      t.deepEqual(opaque, pinned, 'opaque TS fields are only those described by a field table');
    });
  }
}

test('the comparison fails when a type and its schema disagree (a drifted kind)', (t) => {
  const type = reader.exportedType(FIXTURE, 'DriftedSpec');
  if (!type) return t.fail('fixture type not found');
  const schema: Json = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string' },
      accountRef: { type: 'object', properties: { name: { type: 'string' } } },
      size: { type: 'integer' },
      policy: { type: 'string', enum: ['Delete', 'Orphan'] },
      tags: { type: 'array', items: { type: 'string' } },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      port: { 'x-kubernetes-int-or-string': true },
    },
  };
  const { mismatches } = compareTypeWithSchema(reader, type, schema, 'spec', true);
  t.deepEqual(mismatches.sort(), [
    'spec.accountRef: in the CRD, missing in TS',
    'spec.labels{}: string in the CRD, number in TS',
    'spec.policy: enum Delete, Orphan in the CRD, Delete, Keep in TS',
    'spec.port: int-or-string in the CRD, number in TS',
    'spec.size: integer in the CRD, string in TS',
    'spec.tags: always present in TS, optional in the CRD',
    'spec.tags[]: string in the CRD, boolean in TS',
    'spec.typo: in TS, missing in the CRD',
  ]);
});
