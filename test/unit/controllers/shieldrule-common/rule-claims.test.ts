/**
 * The claims of the kinds on a shield zone, as the runtime's index takes them from the object
 * alone (no pass needed): the id (spec or status) and, unless the object adopts by id or is
 * being deleted, the shared name claim on the zone it names, recorded once its status holds an
 * id. The kinds' ManagedKinds use exactly these.
 */
import test from 'ava';
import { createShieldAccessListKind } from '../../../../src/controllers/shieldaccesslist/index.js';
import { SHIELD_RATE_LIMIT } from '../../../../src/controllers/shieldratelimit/kind.js';
import {
  ACCESS_LIST_CLAIM_KIND,
  ruleClaimKind,
  zonedClaimsOf,
  type ZonedClaimKind,
} from '../../../../src/controllers/shieldrule-common/rule-claims.js';
import type { ZonedObject } from '../../../../src/controllers/shieldrule-common/zone.js';
import { SHIELD_WAF_RULE } from '../../../../src/controllers/shieldwafrule/kind.js';
import type { ControllerDeps } from '../../../../src/controllers/shared/deps.js';
import { pino } from 'pino';
import { claimsOfObject } from '../../../../src/runtime/claims-policy.js';
import type { ClaimRef } from '../../../../src/runtime/types.js';

const WAF = ruleClaimKind('ShieldWafRule');

function object(
  spec: Record<string, unknown>,
  status?: Record<string, unknown>,
  deleting = false,
): ZonedObject {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldWafRule',
    metadata: {
      name: 'block-admin',
      namespace: 'shop',
      ...(deleting ? { deletionTimestamp: '2030-01-01T00:00:00Z' } : {}),
    },
    spec,
    ...(status ? { status } : {}),
  };
}

const name = (id: string, recorded: boolean): ClaimRef => ({
  type: 'ShieldRuleName',
  id,
  recorded,
  shared: true,
});

const cases: Array<[string, ZonedClaimKind, ZonedObject, ClaimRef[]]> = [
  [
    'new, by shieldPolicyRef: its name on the policy’s zone, before any id',
    WAF,
    object({ shieldPolicyRef: { name: 'pol' } }),
    [name('policy/shop/pol/ShieldWafRule/block-admin', false)],
  ],
  [
    'new, by shieldZoneId, spec.name over metadata.name',
    WAF,
    object({ shieldZoneId: 101, name: 'Block Admin' }),
    [name('zone/101/ShieldWafRule/Block Admin', false)],
  ],
  [
    'created: the id recorded, the name claim recorded too',
    WAF,
    object({ shieldPolicyRef: { name: 'pol' } }, { ruleId: 12, shieldZoneId: 101 }),
    [
      { type: 'ShieldWafRule', id: '12', recorded: true },
      name('policy/shop/pol/ShieldWafRule/block-admin', true),
    ],
  ],
  [
    'adopting by id: the id only (spec-only), never a name',
    WAF,
    object({ shieldZoneId: 101, adoption: { policy: 'ById', id: 12 } }),
    [{ type: 'ShieldWafRule', id: '12', recorded: false }],
  ],
  [
    'being deleted: the id only',
    WAF,
    object({ shieldZoneId: 101 }, { ruleId: 12 }, true),
    [{ type: 'ShieldWafRule', id: '12', recorded: true }],
  ],
  ['no zone named (invalid spec): nothing', WAF, object({}), []],
  [
    'access list: listId, its kind in the name claim',
    ACCESS_LIST_CLAIM_KIND,
    object({ shieldZoneId: 101 }, { listId: 7 }),
    [
      { type: 'ShieldAccessList', id: '7', recorded: true },
      name('zone/101/ShieldAccessList/block-admin', true),
    ],
  ],
];
for (const [title, kind, obj, expected] of cases) {
  test(`zoned claims: ${title}`, (t) => {
    t.deepEqual(zonedClaimsOf(kind, obj), expected);
  });
}

test('the three kinds claim through zonedClaimsOf (the runtime sees the name claim)', async (t) => {
  const deps: ControllerDeps = {
    apiBaseUrl: 'http://127.0.0.1:1',
    defaultAccount: 'default',
    operatorNamespace: 'cdn-system',
    log: pino({ level: 'silent' }),
  };
  const obj = object({ shieldPolicyRef: { name: 'pol' } });
  for (const [kind, make] of [
    ['ShieldWafRule', await SHIELD_WAF_RULE.controller!()],
    ['ShieldRateLimit', await SHIELD_RATE_LIMIT.controller!()],
    ['ShieldAccessList', createShieldAccessListKind],
  ] as const) {
    const claims = claimsOfObject(make(deps), obj);
    t.deepEqual(claims, [name(`policy/shop/pol/${kind}/block-admin`, false)], kind);
  }
});
