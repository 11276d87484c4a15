import test, { type ExecutionContext } from 'ava';
import type { CallResult } from '../../support/sim-client.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, createPullZone, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

const RULE = {
  ActionType: 1,
  ActionParameter1: 'https://example.com/new',
  ActionParameter2: '301',
  Triggers: [{ Type: 0, PatternMatches: ['*/old/*'], PatternMatchingType: 0 }],
  TriggerMatchingType: 0,
  Description: 'redirect old',
  Enabled: true,
};

async function rulesOf(
  t: Parameters<typeof call>[0],
  id: number,
): Promise<Record<string, unknown>[]> {
  const res = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id },
  });
  return (res.body as { EdgeRules: Record<string, unknown>[] }).EdgeRules;
}

function addOrUpdate(t: ExecutionContext, id: number, body: unknown): Promise<CallResult> {
  return call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{pullZoneId}/edgerules/addOrUpdate',
    params: { pullZoneId: id },
    body,
  });
}

test('addOrUpdate creates a rule and answers 201 with it (its Guid), updates it by Guid, shows it on the zone', async (t) => {
  const id = await createPullZone(t, sim, 'er-create');
  const created = await addOrUpdate(t, id, RULE);
  t.is(created.status, 201);
  const [rule] = await rulesOf(t, id);
  t.regex(String(rule?.Guid), /^[0-9a-f-]{36}$/);
  t.deepEqual(
    created.body,
    rule,
    'live clients read the created rule, Guid included, from the answer',
  );
  t.like(rule, { ActionType: 1, Enabled: true, ReadOnly: false, ExtraActions: [] });
  t.deepEqual(rule?.Triggers, [
    { Type: 0, PatternMatches: ['*/old/*'], PatternMatchingType: 0, Parameter1: null },
  ]);
  const updated = await addOrUpdate(t, id, { ...RULE, Guid: rule?.Guid, ActionParameter2: '302' });
  t.is(updated.status, 201);
  const after = await rulesOf(t, id);
  t.is(after.length, 1, 'an update does not add a rule');
  t.is(after[0]?.ActionParameter2, '302');
  t.deepEqual(updated.body, after[0], 'an update answers the updated rule');
});

test('addOrUpdate: unknown Guid 404, unknown zone 404, bodies that fail binding 400 with the field', async (t) => {
  const id = await createPullZone(t, sim, 'er-errors');
  t.is(
    (await addOrUpdate(t, id, { ...RULE, Guid: '00000000-0000-0000-0000-000000000000' })).status,
    404,
  );
  t.is((await addOrUpdate(t, 999999, RULE)).status, 404);
  const cases: Array<[unknown, string]> = [
    [{ ...RULE, ActionType: 35 }, 'ActionType'],
    [{ ...RULE, Triggers: [{ Type: 14 }] }, 'Triggers[0].Type'],
    [{ ...RULE, TriggerMatchingType: 3 }, 'TriggerMatchingType'],
    [{ ...RULE, ExtraActions: [{ ActionType: 'Redirect' }] }, 'ExtraActions[0].ActionType'],
  ];
  for (const [body, field] of cases) {
    const res = await addOrUpdate(t, id, body);
    t.is(res.status, 400, field);
    t.like(res.body, { Field: field });
  }
  t.deepEqual(await rulesOf(t, id), [], 'nothing stored by rejected calls');
});

test('rules are kept in OrderIndex order; setEdgeRuleEnabled toggles; delete removes; 404s', async (t) => {
  const id = await createPullZone(t, sim, 'er-order');
  await addOrUpdate(t, id, { ...RULE, Description: 'b', OrderIndex: 2 });
  await addOrUpdate(t, id, { ...RULE, Description: 'a', OrderIndex: 1 });
  const rules = await rulesOf(t, id);
  t.deepEqual(
    rules.map((r) => r.Description),
    ['a', 'b'],
  );
  const guid = String(rules[0]?.Guid);
  const toggle = (g: string, Value: unknown): Promise<CallResult> =>
    call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone/{pullZoneId}/edgerules/{edgeRuleId}/setEdgeRuleEnabled',
      params: { pullZoneId: id, edgeRuleId: g },
      body: { Value },
    });
  t.is((await toggle(guid, false)).status, 204);
  t.false((await rulesOf(t, id))[0]?.Enabled);
  t.is((await toggle('nope', true)).status, 404);
  t.is((await toggle(guid, 'yes')).status, 400);
  const del = (g: string): Promise<CallResult> =>
    call(t, sim, {
      area: 'core',
      method: 'DELETE',
      template: '/pullzone/{pullZoneId}/edgerules/{edgeRuleId}',
      params: { pullZoneId: id, edgeRuleId: g },
    });
  t.is((await del(guid)).status, 204);
  t.deepEqual(
    (await rulesOf(t, id)).map((r) => r.Description),
    ['b'],
  );
  t.is((await del(guid)).status, 404);
});

test('a read-only rule cannot be changed or deleted, and a caller cannot set ReadOnly', async (t) => {
  const id = await createPullZone(t, sim, 'er-readonly');
  await addOrUpdate(t, id, { ...RULE, ReadOnly: true });
  const [rule] = await rulesOf(t, id);
  t.false(rule?.ReadOnly, 'ReadOnly from the caller is ignored');
  const zone = sim.state.pullZones.get(id);
  (zone?.record.EdgeRules as Array<Record<string, unknown>>)[0]!.ReadOnly = true;
  const res = await addOrUpdate(t, id, { ...RULE, Guid: rule?.Guid });
  t.is(res.status, 400);
  t.like(res.body, { ErrorKey: 'pullzone.edgerule_read_only' });
  const del = await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/pullzone/{pullZoneId}/edgerules/{edgeRuleId}',
    params: { pullZoneId: id, edgeRuleId: String(rule?.Guid) },
  });
  t.is(del.status, 400);
});

test('addOrUpdate binds like the live API: unknown members are ignored, names match regardless of case', async (t) => {
  const id = await createPullZone(t, sim, 'er-binding');
  const res = await addOrUpdate(t, id, {
    actionType: 1,
    actionParameter1: 'https://example.com/x',
    triggers: [{ type: 0, patternMatches: ['*/x/*'], Parameter2: 'not in the model' }],
    Unknown: 1,
    PullzoneId: id,
  });
  t.is(res.status, 201, JSON.stringify(res.body));
  t.like(res.body, { ActionType: 1, ActionParameter1: 'https://example.com/x' });
  t.deepEqual((res.body as { Triggers: unknown[] }).Triggers, [
    { Type: 0, PatternMatches: ['*/x/*'], PatternMatchingType: 0, Parameter1: null },
  ]);
  const record = sim.calls.snapshot().rejectedByDocument;
  t.true(
    record.log.some((e) => e.accepted === true && e.problems.some((p) => /Unknown/.test(p))),
    'recorded as not exactly documented',
  );
});
