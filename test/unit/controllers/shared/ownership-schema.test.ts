/**
 * The ownership schema fragments live in one TS module (ownership-schema.ts). PullZoneConfig's
 * CRD is generated from it; the hand-written ContainerApp and ShieldPolicy CRDs must carry the
 * very same fragments.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import {
  adoptionSchema,
  adoptionPolicyOf,
  deletionPolicySchema,
  ownershipStatusSchema,
} from '../../../../src/controllers/shared/ownership-schema.js';

type Schema = { properties: Record<string, unknown> };

async function schemaOf(file: string): Promise<{ spec: Schema; status: Schema }> {
  const crd = parse(await readFile(new URL(`../../../../crds/${file}`, import.meta.url), 'utf8'));
  const root = crd.spec.versions[0].schema.openAPIV3Schema.properties;
  return { spec: root.spec, status: root.status };
}

test('ContainerApp CRD carries the shared adoption, deletionPolicy and ownership fragments', async (t) => {
  const { spec, status } = await schemaOf('cdn.operator.io_containerapps.yaml');
  t.deepEqual(spec.properties.adoption, adoptionSchema('application', 'spec.name'));
  t.deepEqual(spec.properties.deletionPolicy, deletionPolicySchema('application'));
  t.deepEqual(status.properties.ownership, ownershipStatusSchema);
});

test('ShieldPolicy CRD carries the shared ownership status fragment', async (t) => {
  const { status } = await schemaOf('cdn.operator.io_shieldpolicies.yaml');
  t.deepEqual(status.properties.ownership, ownershipStatusSchema);
});

test('PullZoneConfig CRD carries the shared fragments', async (t) => {
  const { spec, status } = await schemaOf('cdn.operator.io_pullzoneconfigs.yaml');
  t.deepEqual(spec.properties.deletionPolicy, deletionPolicySchema('pull zone'));
  t.deepEqual(status.properties.ownership, ownershipStatusSchema);
});

const policies: Array<[string, unknown, string | undefined]> = [
  ['ByName', { adoption: { policy: 'ByName' } }, 'ByName'],
  ['absent', {}, undefined],
  ['unknown policy', { adoption: { policy: 'Always' } }, undefined],
  ['not an object', { adoption: 'ByName' }, undefined],
  ['no spec', undefined, undefined],
];
for (const [title, spec, expected] of policies) {
  test(`adoption policy: ${title}`, (t) => {
    const policy: string | undefined = adoptionPolicyOf(spec);
    t.is(policy, expected);
  });
}
