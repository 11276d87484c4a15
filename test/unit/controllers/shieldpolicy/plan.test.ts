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
    apiVersion: 'cdn.operator.io/v1alpha1',
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
    apiVersion: 'cdn.operator.io/v1alpha1',
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
