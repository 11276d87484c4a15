/**
 * `cdnctl export` of a pull zone the platform made for an object exported in the same run (an
 * accelerated DnsRecord, a ContainerApp endpoint, a standalone EdgeScript: owner-marks.ts): its
 * PullZoneConfig links the owner (`spec.pullZoneFrom`) instead of adopting the zone by id, and
 * leaves out what the link refuses (the adoption, a `Delete` policy, the origin settings the
 * owner fixes). Runs after every exporter (the owners are exported after pull zones). A zone
 * whose owner is not exported, or that cannot be told apart from another zone of the same
 * owner, keeps its adoption by id.
 */
import type { PullZone } from '../../cdn/types.js';
import { readIdPath } from '../kit/link-path.js';
import type { ExportResult, ExportedObject } from '../shared/manifest-export.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { ownerMarkOf } from './owner-marks.js';
import { OWNER_FIXED_REFS, OWNER_FIXED_SETTINGS, PULL_ZONE_LINK } from './pull-zone-from.js';

/** An exported zone: the record read and its PullZoneConfig. */
export interface ExportedZone {
  zone: PullZone;
  object: ExportedObject;
}

type Spec = Record<string, unknown>;

const specOf = (o: ExportedObject): Spec => (o.manifest.spec ?? {}) as Spec;

/** The members naming the zone among the owner's (an app's container and endpoint). */
function membersOf(
  owner: ExportedObject,
  zoneId: number,
  path: string | undefined,
): Record<string, string> | undefined {
  if (!path) return {};
  const found = readIdPath(specOf(owner), path, {}).filter((m) => Number(m.id) === zoneId);
  return found.length === 1 ? { ...found[0]!.chosen } : undefined;
}

/** The link of a zone to an exported owner, if it has exactly one. */
function linkOf(
  made: ExportedZone,
  all: readonly ExportedZone[],
  objects: readonly ExportedObject[],
): Record<string, string> | undefined {
  const mark = ownerMarkOf(made.zone);
  if (!mark) return undefined;
  const owner = objects.find(
    (o) => o.kind === mark.kind && adoptionIdOf(specOf(o)) === mark.ownerId,
  );
  if (!owner) return undefined;
  // Several zones of one owner without members to tell them apart: none is linked.
  const siblings = all.filter((z) => {
    const m = ownerMarkOf(z.zone);
    return m?.kind === mark.kind && m.ownerId === mark.ownerId;
  });
  if (!mark.manifestIdPath && siblings.length > 1) return undefined;
  const members = membersOf(owner, Number(made.zone.Id), mark.manifestIdPath);
  return members && { kind: mark.kind, name: owner.name, ...members };
}

/** The spec linking `link`: without what the link refuses beside it. */
function linkedSpec(spec: Spec, link: Record<string, string>): Spec {
  const drop = new Set(['adoption', 'deletionPolicy', 'name', ...OWNER_FIXED_REFS]);
  const rest = Object.fromEntries(Object.entries(spec).filter(([k]) => !drop.has(k)));
  const settings = Object.fromEntries(
    Object.entries((spec.settings ?? {}) as Spec).filter(
      ([k]) => !OWNER_FIXED_SETTINGS.includes(k),
    ),
  );
  return { [PULL_ZONE_LINK.field]: link, ...rest, settings };
}

/** Rewrites the exported zones whose owner is exported too (see the module comment). */
export function linkExportedZones(zones: readonly ExportedZone[], result: ExportResult): void {
  for (const made of zones) {
    const link = linkOf(made, zones, result.objects);
    if (!link) continue;
    made.object.manifest = { ...made.object.manifest, spec: linkedSpec(specOf(made.object), link) };
    result.notes.push(
      `PullZoneConfig ${made.object.name}: links the pull zone of ${link.kind} ${link.name} (spec.${PULL_ZONE_LINK.field}) instead of adopting it by id; its origin is the owner's, and deleting the PullZoneConfig leaves the zone`,
    );
  }
}
