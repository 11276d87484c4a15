/**
 * Pure mapping between a ShieldPolicy spec and the shield zone's API fields: the desired API
 * values, the live view assembled from the single-zone GET and the zone list, and the status
 * fields derived from the live zone.
 */
import { FIELDS } from './fields.js';
import { PlanType } from './enums.js';
import type { ShieldPolicySpec, ShieldPolicyStatus } from './types.js';

/** A shield zone as the API returns it, keyed by API member name. */
export type WireZone = Record<string, unknown>;

/** The desired API values of every field the spec manages (unset spec members are left out). */
export function toDesiredWire(spec: ShieldPolicySpec): WireZone {
  const out: WireZone = {};
  for (const f of FIELDS) {
    const value = f.desired(spec);
    if (value !== undefined) out[f.wire] = value;
  }
  return out;
}

/**
 * The live zone: the single-zone answer, completed with the list-only members from the zone's
 * entry in the zone list (undefined when the list has not shown the zone yet).
 */
export function mergeLiveZone(single: WireZone, listItem: WireZone | undefined): WireZone {
  const live: WireZone = { ...single };
  if (!listItem) return live;
  for (const f of FIELDS) {
    if (f.listOnly && listItem[f.wire] !== undefined) live[f.wire] = listItem[f.wire];
  }
  for (const key of ['planType', 'rateLimitRulesLimit', 'customWafRulesLimit']) {
    if (live[key] === undefined && listItem[key] !== undefined) live[key] = listItem[key];
  }
  return live;
}

/** Status members observed on the live zone (ids, plan and its limits). */
export function statusFromZone(live: WireZone): Partial<ShieldPolicyStatus> {
  const status: Partial<ShieldPolicyStatus> = {};
  if (typeof live.shieldZoneId === 'number') status.shieldZoneId = live.shieldZoneId;
  if (typeof live.pullZoneId === 'number') status.pullZoneId = live.pullZoneId;
  const plan = PlanType.fromWire(live.planType);
  if (plan) status.planType = plan;
  if (typeof live.rateLimitRulesLimit === 'number') {
    status.rateLimitRulesLimit = live.rateLimitRulesLimit;
  }
  if (typeof live.customWafRulesLimit === 'number') {
    status.customWafRulesLimit = live.customWafRulesLimit;
  }
  return status;
}
