/**
 * The shield kinds' v1beta1 schema changes (issue 45): the zone id's format, and each legacy
 * move (KindModule.legacyMoves) lands on a field the CRD has, from one it no longer has, with
 * values the CRD's enum accepts.
 */
import test from 'ava';
import type { KindModule } from '../../../../src/controllers/kind-module.js';
import { SHIELD_ACCESS_LIST } from '../../../../src/controllers/shieldaccesslist/kind.js';
import { SHIELD_POLICY } from '../../../../src/controllers/shieldpolicy/kind.js';
import { SHIELD_RATE_LIMIT } from '../../../../src/controllers/shieldratelimit/kind.js';
import { SHIELD_WAF_RULE } from '../../../../src/controllers/shieldwafrule/kind.js';
import { builtCrd, rootSchema, type Json } from '../../../support/crds.js';

/** The node at a legacy move's path (`spec.a[].b`), or undefined when the CRD has none. */
function nodeAt(root: Json, path: string): Json | undefined {
  let at: Json | undefined = root;
  for (const part of path.replaceAll('[]', '.[]').split('.')) {
    at = part === '[]' ? at?.items : at?.properties?.[part];
  }
  return at;
}

for (const kind of [SHIELD_WAF_RULE, SHIELD_RATE_LIMIT, SHIELD_ACCESS_LIST]) {
  test(`${kind.kind}: spec.shieldZoneId is int64 like status.shieldZoneId`, async (t) => {
    const root = rootSchema(await builtCrd(kind));
    t.like(nodeAt(root, 'spec.shieldZoneId'), { type: 'integer', format: 'int64', minimum: 1 });
    t.like(nodeAt(root, 'status.shieldZoneId'), { type: 'integer', format: 'int64' });
  });
}

const MOVED: KindModule[] = [SHIELD_WAF_RULE, SHIELD_RATE_LIMIT, SHIELD_POLICY];

for (const kind of MOVED) {
  test(`${kind.kind}: every legacy move lands on a CRD field, with values its enum accepts`, async (t) => {
    const root = rootSchema(await builtCrd(kind));
    t.true((kind.legacyMoves ?? []).length > 0, 'the kind has moves');
    for (const move of kind.legacyMoves ?? []) {
      const to = nodeAt(root, move.to);
      t.truthy(to, `${move.to} exists`);
      if (move.from !== move.to) t.is(nodeAt(root, move.from), undefined, `${move.from} is gone`);
      for (const [old, now] of Object.entries(move.values ?? {})) {
        t.true((to?.enum as unknown[]).includes(now), `${move.to}: ${now} is accepted`);
        t.false((to?.enum as string[]).includes(old), `${move.to}: ${old} is refused`);
      }
    }
  });
}
