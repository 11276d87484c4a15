/**
 * Names and labels of the objects a CdnPolicy makes (pure). Names are DNS subdomains of at most
 * 253 characters and label values at most 63: a longer one keeps its start and ends with a
 * digest of the whole, so two long names stay apart.
 */
import { createHash } from 'node:crypto';
import type { TargetKind } from './types.js';

function shortened(value: string, max: number): string {
  if (value.length <= max) return value;
  const digest = createHash('sha256').update(value).digest('hex').slice(0, 10);
  return `${value.slice(0, max - 11).replace(/[-.]+$/, '')}-${digest}`;
}

/** The name of the PullZoneConfig (and ShieldPolicy) made for a route: `<policy>-<kind>-<route>`. */
export function routeChildName(policy: string, kind: TargetKind, route: string): string {
  return shortened(`${policy}-${kind.toLowerCase()}-${route}`, 253);
}

/** The name of the DnsRecord of `hostname`: the route's child name and the hostname. */
export function recordChildName(base: string, hostname: string): string {
  return shortened(`${base}-${hostname}`, 253);
}

/** A label value naming an object (at most 63 characters). */
export function labelValue(name: string): string {
  return shortened(name, 63);
}
