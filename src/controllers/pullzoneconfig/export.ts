/**
 * One pull zone as a PullZoneConfig that adopts it by id (or, for a zone the platform made for
 * an object exported in the same run, links that owner: export-links.ts): every setting the record returns
 * (settings-reverse.ts), the custom hostnames, and the edge rules (edge-rules-mapping.ts's
 * fromWireRule). Secret settings become `<name>Ref` references to one Secret per zone.
 */
import type { Hostname, PullZone } from '../../cdn/types.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator, toDnsLabel } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
  type RequiredSecret,
} from '../shared/manifest-export.js';
import { adoptionById } from '../shared/ownership-schema.js';
import { fromWireRule, type EdgeRuleSpec } from './edge-rules-mapping.js';
import { secretRefName } from './fields.js';
import { PRIVATE_KEY_TYPES } from '../shared/private-key-type.js';
import { type HostnameSpec, PULL_ZONE_CONFIG_NAMES } from './types.js';
import { settingsFromRecord } from './settings-reverse.js';
import type { KindPart } from '../kit/kind-parts.js';
import { linkExportedZones, type ExportedZone } from './export-links.js';

/** CertificateProvisionType of an uploaded certificate (hostnames.ts uses the same value). */
const PROVISION_CUSTOM = 3;

/** What one pull zone export produced. */
export interface PullZoneExport {
  object: ExportedObject;
  secrets: RequiredSecret[];
  notes: string[];
}

function certificateOf(
  h: Hostname,
  zone: string,
  opts: ExportOptions,
  secretNames: NameAllocator,
  out: PullZoneExport,
): HostnameSpec['certificate'] {
  if (h.HasCertificate !== true) return undefined;
  if (h.CertificateProvisionType !== PROVISION_CUSTOM) return { type: 'Free' };
  const host = String(h.Value);
  if (opts.customCertificates === 'omit') {
    out.notes.push(
      `PullZoneConfig ${zone}: hostname ${host} has a custom certificate, left unmanaged (use --custom-certificates secret to manage it through a TLS Secret; the operator then uploads it once)`,
    );
    return undefined;
  }
  const name = secretNames.allocate(`${zone}-tls-${toDnsLabel(host, 'host')}`, host, 'tls');
  out.secrets.push({
    name,
    type: 'kubernetes.io/tls',
    keys: ['tls.crt', 'tls.key'],
    purpose: `PullZoneConfig ${zone}: certificate of ${host}`,
    filledBy: 'user',
  });
  return { type: 'Custom', secretRef: { name } };
}

function hostnamesOf(
  record: PullZone,
  zone: string,
  opts: ExportOptions,
  secretNames: NameAllocator,
  out: PullZoneExport,
): HostnameSpec[] {
  const custom = (record.Hostnames ?? []).filter(
    (h) => h.IsSystemHostname !== true && typeof h.Value === 'string',
  );
  return custom.map((h) => {
    const spec: HostnameSpec = { hostname: String(h.Value), forceSSL: h.ForceSSL === true };
    const certificate = certificateOf(h, zone, opts, secretNames, out);
    if (certificate) spec.certificate = certificate;
    const keyType =
      typeof h.CertificateKeyType === 'number'
        ? PRIVATE_KEY_TYPES[h.CertificateKeyType]
        : undefined;
    // The key type belongs to the free certificate the platform issues; an uploaded one has its own.
    if (certificate?.type === 'Free' && keyType) spec.privateKeyType = keyType;
    return spec;
  });
}

/** Edge rule names: the description as a DNS label, else `rule-<n>`; unique per zone. */
function edgeRulesOf(record: PullZone): EdgeRuleSpec[] {
  const names = new NameAllocator();
  return (record.EdgeRules ?? []).map((rule, i) => {
    const name = names.allocate(String(rule.Description ?? ''), i + 1, 'rule');
    return fromWireRule(rule, name, i);
  });
}

function secretSettings(
  record: PullZone,
  zone: string,
  secretNames: NameAllocator,
  out: PullZoneExport,
): Record<string, unknown> {
  const { secrets } = settingsFromRecord(record);
  if (secrets.length === 0) return {};
  const name = secretNames.allocate(`${zone}-settings`, String(record.Id), 'settings');
  out.secrets.push({
    name,
    type: 'Opaque',
    keys: secrets.map((f) => f.spec),
    purpose: `PullZoneConfig ${zone}: secret settings ${secrets.map((f) => f.spec).join(', ')}`,
    filledBy: 'user',
  });
  return Object.fromEntries(secrets.map((f) => [secretRefName(f), { name, key: f.spec }]));
}

/** See the module comment. `name` is the object's (already unique) name. */
export function exportPullZone(
  record: PullZone,
  name: string,
  opts: ExportOptions,
  secretNames: NameAllocator,
): PullZoneExport {
  const out: PullZoneExport = {
    object: { kind: PULL_ZONE_CONFIG_NAMES.kind, name, manifest: {} },
    secrets: [],
    notes: [],
  };
  const { settings, skipped } = settingsFromRecord(record);
  for (const s of skipped)
    out.notes.push(`PullZoneConfig ${name}: settings.${s.setting} left out (${s.reason})`);
  const hostnames = hostnamesOf(record, name, opts, secretNames, out);
  const edgeRules = edgeRulesOf(record);
  const spec: Record<string, unknown> = {
    // The id alone: the CRD refuses adoption.id together with name (the zone keeps its name).
    ...adoptionById(record.Id),
    deletionPolicy: opts.deletionPolicy,
    ...opts.account,
    settings: { ...settings, ...secretSettings(record, name, secretNames, out) },
    ...(hostnames.length > 0 ? { hostnames } : {}),
    ...(edgeRules.length > 0 ? { edgeRules } : {}),
  };
  out.object.manifest = {
    ...typeMetaOf(PULL_ZONE_CONFIG_NAMES),
    metadata: metadataOf(name, opts.namespace),
    spec,
  };
  return out;
}

const byId = (a: { Id?: number | null }, b: { Id?: number | null }): number =>
  Number(a.Id) - Number(b.Id);

/**
 * Every pull zone of the account, each read once by id, named in ascending id order. The
 * names are recorded (`c.names`) even when PullZoneConfigs are not exported: ShieldPolicies
 * are named after them.
 */
export async function exportPullZones(c: ExportContext): Promise<void> {
  const listed = (await c.client.listPullZones()).sort(byId);
  const names = new NameAllocator();
  const zoneNames = c.names(PULL_ZONE_CONFIG_NAMES.kind);
  const exported: ExportedZone[] = [];
  for (const item of listed) {
    const record: PullZone = await c.client.getPullZone(Number(item.Id));
    const name = names.allocate(String(record.Name ?? ''), Number(record.Id), 'pullzone');
    zoneNames.set(String(record.Id), name);
    if (!c.wants(PULL_ZONE_CONFIG_NAMES.kind)) continue;
    const out = exportPullZone(record, name, c.opts, c.secretNames);
    c.result.objects.push(out.object);
    c.result.secrets.push(...out.secrets);
    c.result.notes.push(...out.notes);
    exported.push({ zone: record, object: out.object });
  }
  // The owners of platform-made zones are exported later (export-links.ts).
  c.afterAll?.(() => linkExportedZones(exported, c.result));
}

/** The kind's `cdnctl export` exporter, under its part's name (kit/kind-parts.ts). */
export const exporter: KindPart<'exporter'> = exportPullZones;
