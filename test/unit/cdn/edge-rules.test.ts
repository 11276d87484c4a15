/**
 * Edge rule client methods (src/cdn/edge-rules.ts) against cdn-sim; every request body is checked against the official request
 * schema (assertBodiesValid).
 */
import test from 'ava';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { assertBodiesValid, startSimClient } from './sim-harness.js';

test('edge rules: create, read back from the zone, update by Guid, toggle, delete', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const zone = await c.addPullZone({ Name: 'client-er', OriginUrl: 'https://o.example' });
  const id = zone.Id!;
  await c.addOrUpdateEdgeRule(id, {
    ActionType: 5,
    ActionParameter1: 'X-Frame-Options',
    ActionParameter2: 'DENY',
    Triggers: [{ Type: 3, PatternMatches: ['html'], PatternMatchingType: 0 }],
    TriggerMatchingType: 1,
    Enabled: true,
    Description: 'frame',
  });
  const [rule] = (await c.getPullZone(id)).EdgeRules ?? [];
  t.truthy(rule?.Guid);
  await c.addOrUpdateEdgeRule(id, { ...rule, ActionParameter2: 'SAMEORIGIN' });
  await c.setEdgeRuleEnabled(id, rule!.Guid!, false);
  const [after] = (await c.getPullZone(id)).EdgeRules ?? [];
  t.like(after, { Guid: rule?.Guid, ActionParameter2: 'SAMEORIGIN', Enabled: false });
  await c.deleteEdgeRule(id, rule!.Guid!);
  t.deepEqual((await c.getPullZone(id)).EdgeRules, []);
  const e = await t.throwsAsync(c.deleteEdgeRule(id, rule!.Guid!), { instanceOf: CdnApiError });
  t.is(e.kind, 'notFound');
  await t.throwsAsync(c.deleteEdgeRule(id, ''), { instanceOf: CdnApiError, message: /edgeRuleId/ });
  assertBodiesValid(t, h.sent);
});
