/**
 * Helpers for the unit tests of the kinds on a shield zone (shield rules, ShieldAccessList)
 * against an in-process cdn-sim: a fresh shield zone, the writes the simulator logged, and an
 * ExternalContext.
 */
import { pino } from 'pino';
import type { ExternalContext } from '../../../src/runtime/types.js';
import type { SimClient } from '../cdn/sim-harness.js';

let zones = 0;

/** A fresh pull zone with a shield zone on `planType` (0 Basic .. 3 Enterprise); its id. */
export async function seedShieldZone(h: SimClient, planType: number): Promise<number> {
  const seeded = (await h.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: `unit-shield-${++zones}-${planType}` }],
  })) as { pullZones: number[] };
  const made = (await h.admin('POST', '/_sim/seed', {
    shieldZones: [{ pullZoneId: seeded.pullZones[0], planType }],
  })) as { shieldZones: number[] };
  return made.shieldZones[0]!;
}

/** The routes of the platform writes the simulator logged (`POST /shield/...`). */
export async function simWriteRoutes(h: SimClient): Promise<string[]> {
  const body = (await h.admin('GET', '/_sim/calls')) as {
    log: { method: string; route: string }[];
  };
  return body.log.filter((c) => c.method !== 'GET').map((c) => c.route);
}

/** An ExternalContext with a silent logger. */
export function externalContext(
  externalId?: string,
  extra: Partial<ExternalContext> = {},
): ExternalContext {
  return {
    externalId,
    createPending: false,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
    ...extra,
  };
}
