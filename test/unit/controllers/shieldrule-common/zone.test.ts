/**
 * The shield zone of a rule (shieldrule-common/zone.ts) and the ownership check behind
 * `spec.shieldZoneId`: a ShieldPolicy claims the shield zone it records (claim type
 * `ShieldZone`), so the claim index names the policy's namespace as the zone's owner and a
 * rule of another namespace is refused (ReferenceNotAllowed) before anything is sent. Without
 * that claim (the code before issue 34) the id is unclaimed and the last test fails.
 */
import test from 'ava';
import { ClaimIndex } from '../../../../src/runtime/claims.js';
import { findForeignReference } from '../../../../src/runtime/claims-policy.js';
import { WaitingError, TerminalError } from '../../../../src/runtime/errors.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import { shieldClaimsOf } from '../../../../src/controllers/shieldpolicy/index.js';
import type { ShieldPolicy } from '../../../../src/controllers/shieldpolicy/types.js';
import {
  resolveShieldZoneId,
  shieldPolicyRefOf,
  zoneIdReferencesOf,
  type RuleObject,
} from '../../../../src/controllers/shieldrule-common/zone.js';

function rule(
  namespace: string,
  spec: Record<string, unknown>,
  extra: Partial<RuleObject> = {},
): RuleObject {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldWafRule',
    metadata: { name: 'r', namespace, uid: `uid-${namespace}` },
    spec: spec,
    ...extra,
  };
}

function policy(namespace: string, status: Record<string, unknown> = {}): ShieldPolicy {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'pol', namespace, uid: `pol-${namespace}` },
    spec: { pullZoneId: 5 },
    status,
  };
}

test('a ShieldPolicy claims the shield zone recorded in its status', (t) => {
  t.deepEqual(shieldClaimsOf(policy('a', { pullZoneId: 5, shieldZoneId: 70 })), [
    { type: 'ShieldPolicy', id: '5', recorded: true },
    { type: 'ShieldZone', id: '70', recorded: true },
  ]);
  t.deepEqual(shieldClaimsOf(policy('a')), [{ type: 'ShieldPolicy', id: '5', recorded: false }]);
});

test("a rule naming another namespace's shield zone by id is refused; its own is allowed", (t) => {
  const index = new ClaimIndex();
  const owner = policy('team-a', { pullZoneId: 5, shieldZoneId: 70 });
  index.set('ShieldPolicy', owner, shieldClaimsOf(owner), 'acct');
  const thief = rule('team-b', { shieldZoneId: 70 });
  const refused = findForeignReference(index, thief, zoneIdReferencesOf(thief), 'acct');
  t.like(refused, { ref: { field: 'spec.shieldZoneId', type: 'ShieldZone', id: '70' } });
  t.is(refused?.owner.namespace, 'team-a');
  const own = rule('team-a', { shieldZoneId: 70 });
  t.is(findForeignReference(index, own, zoneIdReferencesOf(own), 'acct'), undefined);
  const free = rule('team-b', { shieldZoneId: 71 });
  t.is(findForeignReference(index, free, zoneIdReferencesOf(free), 'acct'), undefined);
});

test('the zone: by id, by a ready policy, waiting for one, the recorded zone while deleting', (t) => {
  const none = (): ManagedObject | undefined => undefined;
  t.is(resolveShieldZoneId(rule('a', { shieldZoneId: 70 }), none), 70);
  const byRef = rule('a', { shieldPolicyRef: { name: 'pol' } });
  t.deepEqual(shieldPolicyRefOf(byRef), {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    namespace: 'a',
    name: 'pol',
  });
  t.is(
    resolveShieldZoneId(byRef, () => policy('a', { shieldZoneId: 70 })),
    70,
  );
  const waiting = t.throws(() => resolveShieldZoneId(byRef, () => policy('a')));
  t.true(waiting instanceof WaitingError);
  t.regex(String(waiting?.message), /ShieldPolicy a\/pol has no status.shieldZoneId yet/);
  t.regex(String(t.throws(() => resolveShieldZoneId(byRef, none))?.message), /was not found/);
  const deleting = rule(
    'a',
    { shieldPolicyRef: { name: 'pol' } },
    {
      metadata: { name: 'r', namespace: 'a', deletionTimestamp: '2026-01-01T00:00:00Z' },
      status: { shieldZoneId: 70 },
    },
  );
  t.is(resolveShieldZoneId(deleting, none), 70);
  const both = t.throws(() =>
    resolveShieldZoneId(rule('a', { shieldZoneId: 1, shieldPolicyRef: { name: 'p' } }), none),
  );
  t.true(both instanceof TerminalError);
});
