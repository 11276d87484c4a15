/**
 * Ownership and adoption are described once (ownership-schema.ts): every kind's shipped CRD
 * carries the very same fragments, and the reader of spec.adoption accepts only ByName.
 */
import test from 'ava';
import { CONTAINER_APP } from '../../../../src/controllers/containerapp/kind.js';
import type { KindModule } from '../../../../src/controllers/kind-module.js';
import { PULL_ZONE_CONFIG } from '../../../../src/controllers/pullzoneconfig/kind.js';
import {
  adoptionFragment,
  adoptionPolicyOf,
  ownershipStatusSchema,
} from '../../../../src/controllers/shared/ownership-schema.js';
import { SHIELD_POLICY } from '../../../../src/controllers/shieldpolicy/kind.js';
import { STORAGE_ZONE } from '../../../../src/controllers/storagezone/kind.js';
import { rootSchema, shippedCrd, type Json } from '../../../support/crds.js';

function schemaOf(kind: KindModule): { spec: Json; status: Json } {
  const root = rootSchema(shippedCrd(kind)).properties as Json;
  return { spec: root.spec as Json, status: root.status as Json };
}

const ADOPTING: Array<[KindModule, string, string]> = [
  [PULL_ZONE_CONFIG, 'pull zone', 'spec.name (or metadata.name)'],
  [CONTAINER_APP, 'application', 'spec.name'],
  [STORAGE_ZONE, 'storage zone', 'spec.name (or metadata.name)'],
];

for (const [kind, what, nameField] of ADOPTING) {
  test(`${kind.kind} CRD carries the shared adoption, deletionPolicy and ownership fragments`, (t) => {
    const { spec, status } = schemaOf(kind);
    const fragment = adoptionFragment(what, nameField).properties;
    t.deepEqual(spec.properties.adoption, fragment.adoption);
    t.deepEqual(spec.properties.deletionPolicy, fragment.deletionPolicy);
    t.is(spec.properties.deletionPolicy.default, undefined, 'no schema default');
    t.deepEqual(status.properties.ownership, ownershipStatusSchema);
  });
}

test('ShieldPolicy CRD carries the shared ownership status fragment and no adoption', (t) => {
  const { spec, status } = schemaOf(SHIELD_POLICY);
  t.deepEqual(status.properties.ownership, ownershipStatusSchema);
  t.is(spec.properties.adoption, undefined, 'a shield zone is found by its pull zone');
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
