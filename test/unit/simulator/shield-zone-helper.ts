/** Shared setup of the shield rule, access list and feature tests: a shield zone on a plan. */
import type { ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, createPullZone } from '../../support/sim-client.js';

/** Creates a pull zone and its shield zone on `planType` (0 Basic .. 3 Enterprise). */
export async function createShieldZone(
  t: ExecutionContext,
  sim: SimulatorHandle,
  name: string,
  planType = 0,
): Promise<number> {
  const pullZoneId = await createPullZone(t, sim, name);
  const res = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/shield-zone',
    body: { pullZoneId, shieldZone: { planType } },
  });
  t.is(res.status, 200, JSON.stringify(res.body));
  return (res.body as { data: { shieldZone: { shieldZoneId: number } } }).data.shieldZone
    .shieldZoneId;
}
