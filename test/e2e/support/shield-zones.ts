/**
 * Shield zones for the e2e suites of the kinds that live on one (the shield rules,
 * ShieldAccessList): zones made outside Kubernetes through cdn-sim's admin seed, manifests with
 * a short poll interval, and a ShieldPolicy adopting a zone without a write.
 */
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { SHIELD_POLICY_NAMES } from '../../../src/controllers/shieldpolicy/types.js';
import { apply } from './kube.js';
import { waitForCondition } from './kube.js';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';

/** A pull zone and the shield zone on it. */
export interface SeededZone {
  pullZoneId: number;
  shieldZoneId: number;
}

/** Calls cdn-sim's admin API (seeding, not counted as platform calls). */
export async function simAdmin(
  sim: SimulatorHandle,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { 'X-Sim-Admin-Token': sim.adminToken, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`admin ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A pull zone named `name` with a shield zone on `planType` (0 Basic .. 3 Enterprise). */
export async function seedShieldZone(
  sim: SimulatorHandle,
  name: string,
  planType: number,
): Promise<SeededZone> {
  const pz = (await simAdmin(sim, 'POST', '/_sim/seed', { pullZones: [{ Name: name }] })) as {
    pullZones: number[];
  };
  const pullZoneId = pz.pullZones[0]!;
  const sz = (await simAdmin(sim, 'POST', '/_sim/seed', {
    shieldZones: [{ pullZoneId, planType }],
  })) as { shieldZones: number[] };
  return { pullZoneId, shieldZoneId: sz.shieldZones[0]! };
}

/** JSON of an object of `kind` polled every 5 s. */
export function pollingManifest(
  kind: string,
  ns: string,
  name: string,
  spec: Record<string, unknown>,
): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name, namespace: ns, annotations: { 'cdn.operator.io/poll-interval': '5s' } },
    spec,
  });
}

/** A ShieldPolicy `name` in `ns` adopting the shield zone of `pullZoneId` (Orphan); its zone id. */
export async function adoptShieldPolicy(
  ns: string,
  name: string,
  pullZoneId: number,
): Promise<number> {
  await apply(pollingManifest('ShieldPolicy', ns, name, { pullZoneId, deletionPolicy: 'Orphan' }));
  const obj = await waitForCondition(crdNameOf(SHIELD_POLICY_NAMES), ns, name, 'Ready', 'True');
  return Number(obj.status?.shieldZoneId);
}
