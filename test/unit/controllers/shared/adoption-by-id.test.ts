/**
 * Adoption by id is `spec.adoption: {policy: ById, id}` in every kind that adopts (issue 45):
 * each kind's `specExternalId` (what the runtime records, claims and never creates for) reads it
 * through the one reader, and no longer reads the v1alpha1 id fields (`spec.pullZoneId`, ...)
 * nor an id given with ByName.
 */
import test from 'ava';
import { pino } from 'pino';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';
import { createManagedKinds } from '../../../../src/controllers/registry.js';
import type { ManagedKind, ManagedObject } from '../../../../src/runtime/types.js';
import { ADOPTION_IDS } from '../../../support/adoption-ids.js';

const deps = { apiBaseUrl: 'http://127.0.0.1:1', log: pino({ level: 'silent' }) };

function objectOf(kind: string, spec: Record<string, unknown>): ManagedObject {
  return {
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name: 'o', namespace: 'ns', uid: 'u' },
    spec,
  };
}

let kinds: ManagedKind[] = [];
test.before(async () => {
  kinds = await createManagedKinds(deps);
});

for (const { kind, legacyField, id } of ADOPTION_IDS) {
  test(`${kind}: the id of spec.adoption ById is the external id; ByName and ${legacyField} are not`, (t) => {
    const k = kinds.find((x) => x.kind === kind);
    if (!k?.specExternalId) return t.fail(`${kind} reads no spec id`);
    const read = (spec: Record<string, unknown>): string | undefined =>
      k.specExternalId?.(objectOf(kind, spec));
    t.is(read({ adoption: { policy: 'ById', id } }), String(id), 'ById: the id, as a string');
    t.is(read({ adoption: { policy: 'ByName' } }), undefined, 'ByName: no id');
    t.is(
      read({ adoption: { policy: 'ByName', id } }),
      undefined,
      'an id beside ByName is not read',
    );
    t.is(read({ [legacyField]: id }), undefined, `the v1alpha1 ${legacyField} is not read`);
    t.is(read({}), undefined, 'no adoption: no id');
  });
}
