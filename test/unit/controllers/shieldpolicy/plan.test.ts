/**
 * `cdnctl diff` of a ShieldPolicy with custom pages: the HTML comes from the ConfigMaps among
 * the compared manifests; without them the policy is skipped with a note naming the ConfigMap.
 */
import test from 'ava';
import pino from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { planShieldPolicy } from '../../../../src/controllers/shieldpolicy/plan.js';
import type { ShieldPolicy } from '../../../../src/controllers/shieldpolicy/types.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import type { PlanContext } from '../../../../src/controllers/shared/manifest-plan.js';
import { startSimulator } from '../../../../src/simulator/server.js';
import { WAF_RULE_FAMILY } from '../../../../src/controllers/shieldwafrule/family.js';
import { desiredConfiguration, WAF_SPEC } from '../../../support/shield-rule-specs.js';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';

const KEY = 'shield-plan-unit';

test('custom pages compare with the ConfigMap manifests, and are skipped without them', async (t) => {
  const sim = await startSimulator({ apiKeys: [{ key: KEY }] });
  const client = new CdnClient({
    baseUrl: sim.url,
    credentials: KEY,
    logger: pino({ level: 'silent' }),
  });
  t.teardown(async () => {
    client.close();
    await sim.close();
  });
  const seeded = await fetch(`${sim.url}/_sim/seed`, {
    method: 'POST',
    headers: { 'X-Sim-Admin-Token': sim.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify({ pullZones: [{ Name: 'plan-pages' }] }),
  });
  const pullZoneId = ((await seeded.json()) as { pullZones: number[] }).pullZones[0]!;
  const zone = await client.createShieldZone({ pullZoneId, shieldZone: { planType: 1 } });
  await client.putCustomPage(Number(zone.shieldZoneId), 'block', '<p>live</p>');
  const obj: ShieldPolicy = {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'p', namespace: 'ns' },
    spec: {
      pullZoneId,
      customPages: [{ pageType: 'block', configMapRef: { name: 'pages', key: 'b' } }],
    },
  };
  const withMap = (html: string | undefined): PlanContext => ({
    objectsOf: (kind: string): ManagedObject[] =>
      kind === 'ConfigMap' && html !== undefined
        ? [
            {
              apiVersion: 'v1',
              kind,
              metadata: { name: 'pages', namespace: 'ns' },
              data: { b: html },
            } as ManagedObject,
          ]
        : [],
  });
  t.like(await planShieldPolicy(client, obj, withMap('<p>live</p>')), {
    action: 'none',
    diffs: [],
  });
  const changed = await planShieldPolicy(client, obj, withMap('<p>new</p>'));
  t.is(changed.action, 'update');
  t.deepEqual(
    changed.diffs.map((d) => d.field),
    ['customPages.block'],
  );
  const skipped = await planShieldPolicy(client, obj, withMap(undefined));
  t.is(skipped.action, 'skipped');
  t.regex(
    skipped.note ?? '',
    /ConfigMap ns\/pages .*not found: compare it together with the ConfigMaps/,
  );
});

test('cdnctl diff reads no status-only data: neither rule metrics nor triggered rules', async (t) => {
  const sim = await startSimulator({ apiKeys: [{ key: KEY }] });
  const client = new CdnClient({
    baseUrl: sim.url,
    credentials: KEY,
    logger: pino({ level: 'silent' }),
  });
  t.teardown(async () => {
    client.close();
    await sim.close();
  });
  const seeded = await fetch(`${sim.url}/_sim/seed`, {
    method: 'POST',
    headers: { 'X-Sim-Admin-Token': sim.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify({ pullZones: [{ Name: 'plan-status' }] }),
  });
  const pullZoneId = ((await seeded.json()) as { pullZones: number[] }).pullZones[0]!;
  await client.createShieldZone({ pullZoneId, shieldZone: { wafEnabled: true } });
  const obj: ShieldPolicy = {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { pullZoneId, waf: { enabled: false }, ruleMetrics: ['913100'] },
  };
  const plan = await planShieldPolicy(client, obj, { objectsOf: () => [] });
  t.like(plan, { action: 'update', diffs: [{ field: 'wafEnabled' }] });
  const routes = Object.keys(sim.calls.snapshot().routes);
  t.false(
    routes.some((r) => r.includes('review-triggered') || r.includes('/metrics/')),
    routes.join(', '),
  );
});

test('cdnctl diff under rulePolicy Exact: unmanaged items planned as deleted, the manifests’ own not', async (t) => {
  const sim = await startSimulator({ apiKeys: [{ key: KEY }] });
  const client = new CdnClient({
    baseUrl: sim.url,
    credentials: KEY,
    logger: pino({ level: 'silent' }),
  });
  t.teardown(async () => {
    client.close();
    await sim.close();
  });
  const seeded = await fetch(`${sim.url}/_sim/seed`, {
    method: 'POST',
    headers: { 'X-Sim-Admin-Token': sim.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify({ pullZones: [{ Name: 'plan-exact' }] }),
  });
  const pullZoneId = ((await seeded.json()) as { pullZones: number[] }).pullZones[0]!;
  const zone = Number(
    (await client.createShieldZone({ pullZoneId, shieldZone: { planType: 3 } })).shieldZoneId,
  );
  const waf = desiredConfiguration(WAF_RULE_FAMILY.members, WAF_SPEC);
  const rule = async (ruleName: string): Promise<number> =>
    Number(
      (
        await client.createCustomWafRule({
          shieldZoneId: zone,
          ruleName,
          ruleConfiguration: waf,
        })
      ).id,
    );
  const adopted = await rule('adopted');
  await rule('declared');
  const stray = await rule('stray');
  const list = await client.createCustomAccessList(zone, {
    name: 'bad',
    type: 0,
    content: '192.0.2.1',
  });
  const manifest = (kind: string, name: string, spec: Record<string, unknown>): ManagedObject =>
    ({
      apiVersion: apiVersionOfKind(kind),
      kind,
      metadata: { name },
      spec,
    }) as ManagedObject;
  const objects: Record<string, ManagedObject[]> = {
    ShieldWafRule: [
      // Adopts by id through the policy; declares a name on the zone by id; names another policy.
      manifest('ShieldWafRule', 'a', {
        shieldPolicyRef: { name: 'p' },
        adoption: { policy: 'ById', id: adopted },
      }),
      manifest('ShieldWafRule', 'declared', { shieldZoneId: zone }),
      manifest('ShieldWafRule', 'stray', { shieldPolicyRef: { name: 'other' } }),
    ],
  };
  const ctx: PlanContext = { objectsOf: (kind) => objects[kind] ?? [] };
  const obj: ShieldPolicy = {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { pullZoneId, rulePolicy: 'Exact' },
  };
  const plan = await planShieldPolicy(client, obj, ctx);
  t.is(plan.action, 'update');
  t.deepEqual(
    plan.diffs.map((d) => d.field),
    [`customWafRules[${stray} "stray"]`, `accessLists[${list.id} "bad"]`],
  );
  const writes = sim.calls.snapshot().log.filter((c) => c.method !== 'GET');
  t.deepEqual(
    writes.filter((c) => c.method === 'DELETE'),
    [],
    'a diff deletes nothing',
  );
  const additive = await planShieldPolicy(
    client,
    { ...obj, spec: { pullZoneId, rulePolicy: 'Additive' } },
    ctx,
  );
  t.like(additive, { action: 'none', diffs: [] });
});
