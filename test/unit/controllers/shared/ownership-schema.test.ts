/**
 * Ownership and adoption are described once (ownership-schema.ts): every kind's shipped CRD
 * carries the very same fragments (bar the id's schema and description, the kind's own), and the
 * readers of spec.adoption accept only ById with an id, or ByName.
 */
import test from 'ava';
import { CONTAINER_APP } from '../../../../src/controllers/containerapp/kind.js';
import type { KindModule } from '../../../../src/controllers/kind-module.js';
import { PULL_ZONE_CONFIG } from '../../../../src/controllers/pullzoneconfig/kind.js';
import {
  adoptionFragment,
  adoptionIdOf,
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
    const fragment = adoptionFragment(what, nameField, { schema: {}, description: '' }).properties;
    const { id, ...others } = spec.properties.adoption.properties as Json;
    const { id: _, ...want } = (fragment.adoption?.properties ?? {}) as Json;
    t.deepEqual(others, want);
    t.deepEqual(
      spec.properties.adoption['x-kubernetes-validations'],
      fragment.adoption?.['x-kubernetes-validations'],
    );
    t.deepEqual((id as Json)['x-kubernetes-validations'], [
      { rule: 'self == oldSelf', message: 'adoption.id is immutable' },
    ]);
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
  ['ById', { adoption: { policy: 'ById', id: 5 } }, 'ById'],
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

const ids: Array<[string, unknown, string | undefined]> = [
  ['ById with an integer id: the id as a string', { adoption: { policy: 'ById', id: 42 } }, '42'],
  ['ById with a string id (ContainerApp)', { adoption: { policy: 'ById', id: 'app-1' } }, 'app-1'],
  ['ById with an empty id: none', { adoption: { policy: 'ById', id: '' } }, undefined],
  ['ById without an id: none', { adoption: { policy: 'ById' } }, undefined],
  ['ByName: an id is not read', { adoption: { policy: 'ByName', id: 42 } }, undefined],
  ['the old top-level id field: not read', { pullZoneId: 42 }, undefined],
  ['no spec', undefined, undefined],
];
for (const [title, spec, expected] of ids) {
  test(`adoption id: ${title}`, (t) => {
    t.is(adoptionIdOf(spec), expected);
  });
}
