/**
 * The pull zone of an accelerated DNS record goes when acceleration is turned off; the shield
 * zone on it goes with it, and so do that shield zone's rules, exactly as when the pull zone is
 * deleted through `DELETE /pullzone/{id}` (one removal for both: routes/pullzone-model.ts).
 */
import test from 'ava';
import { call, startTestSim } from '../../support/sim-client.js';
import { addRecord, addZone, dns } from './dns-support.js';

const WAF_RULE = {
  actionType: 1,
  variableTypes: { REQUEST_URI: '' },
  operatorType: 2,
  value: '/admin',
};

for (const [why, remove] of [
  ['acceleration turned off', 'off'],
  ['the record deleted', 'delete'],
] as const) {
  test(`${why}: the accelerated pull zone's shield zone and its rules go too`, async (t) => {
    const sim = await startTestSim();
    t.teardown(() => sim.close());
    const zoneId = await addZone(t, sim, `accelerated-${remove}.example`);
    const record = (
      await addRecord(t, sim, zoneId, {
        Type: 0,
        Name: 'www',
        Value: '192.0.2.9',
        Accelerated: true,
      })
    ).body as { Id: number; AcceleratedPullZoneId: number };
    const shield = await call(t, sim, {
      area: 'shield',
      method: 'POST',
      template: '/shield/shield-zone',
      body: { pullZoneId: record.AcceleratedPullZoneId, shieldZone: { planType: 1 } },
    });
    const shieldZoneId = (shield.body as { data: { shieldZone: { shieldZoneId: number } } }).data
      .shieldZone.shieldZoneId;
    const rule = await call(t, sim, {
      area: 'shield',
      method: 'POST',
      template: '/shield/waf/custom-rule',
      body: { shieldZoneId, ruleName: 'block-admin', ruleConfiguration: WAF_RULE },
    });
    t.is(rule.status, 200, JSON.stringify(rule.body));
    t.is(sim.state.collections.ofShieldZone('wafCustomRules', shieldZoneId).length, 1);
    const path = { zoneId, id: record.Id };
    if (remove === 'off') {
      await dns(t, sim, 'POST', '/dnszone/{zoneId}/records/{id}', path, { Accelerated: false });
    } else {
      await dns(t, sim, 'DELETE', '/dnszone/{zoneId}/records/{id}', path);
    }
    t.false(sim.state.pullZones.has(record.AcceleratedPullZoneId));
    t.false(sim.state.shieldZones.has(shieldZoneId));
    t.deepEqual(
      sim.state.collections.ofShieldZone('wafCustomRules', shieldZoneId),
      [],
      'no rule is left on a shield zone that is gone',
    );
  });
}
