/**
 * Reads an account and builds the manifests of `cdnctl export` (docs/export.md). Only reads:
 * every list is followed to its end, then each resource is read once by id, the way the
 * operator reads it (so the export sees exactly what the operator will compare against).
 * Objects are named in ascending platform id order, so names are stable between runs.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { PullZone } from '../../cdn/types.js';
import type { WireZone } from '../../controllers/shieldpolicy/mapping.js';
import { exportContainerApp } from './container-app.js';
import { NameAllocator } from './names.js';
import { exportPullZone } from './pull-zone.js';
import { exportShieldPolicy } from './shield-policy.js';
import { exportStorageZone } from './storage-zone.js';
import type { ExportOptions, ExportResult } from './types.js';

interface Context {
  client: CdnClient;
  opts: ExportOptions;
  secretNames: NameAllocator;
  result: ExportResult;
  /** Pull zone id -> exported PullZoneConfig name. */
  zoneNames: Map<number, string>;
}

const byNumber = (a: { Id?: number | null }, b: { Id?: number | null }): number =>
  Number(a.Id) - Number(b.Id);

async function exportPullZones(c: Context): Promise<void> {
  const listed = (await c.client.listPullZones()).sort(byNumber);
  const names = new NameAllocator();
  for (const item of listed) {
    const record: PullZone = await c.client.getPullZone(Number(item.Id));
    const name = names.allocate(String(record.Name ?? ''), Number(record.Id), 'pullzone');
    c.zoneNames.set(Number(record.Id), name);
    if (!c.opts.kinds.has('PullZoneConfig')) continue;
    const out = exportPullZone(record, name, c.opts, c.secretNames);
    c.result.objects.push(out.object);
    c.result.secrets.push(...out.secrets);
    c.result.notes.push(...out.notes);
  }
}

async function exportShieldPolicies(c: Context): Promise<void> {
  const listed = await c.client.listAllShieldZones();
  const items = listed
    .map((z) => z as unknown as WireZone)
    .filter((z) => typeof z.pullZoneId === 'number')
    .sort((a, b) => Number(a.pullZoneId) - Number(b.pullZoneId));
  const names = new NameAllocator();
  for (const item of items) {
    const pullZoneId = Number(item.pullZoneId);
    const single = await c.client.getShieldZoneByPullZone(pullZoneId);
    if (!single) continue;
    const zoneName = c.zoneNames.get(pullZoneId);
    const name = names.allocate(zoneName ?? '', pullZoneId, 'shield');
    const ref = c.opts.kinds.has('PullZoneConfig') ? zoneName : undefined;
    c.result.objects.push(exportShieldPolicy(single, item, pullZoneId, name, ref, c.opts));
  }
}

async function exportContainerApps(c: Context): Promise<void> {
  const ids = (await c.client.listApps())
    .map((a) => a.id)
    .filter((id): id is string => typeof id === 'string')
    .sort();
  const names = new NameAllocator();
  for (const id of ids) {
    const app = await c.client.getApp(id);
    const name = names.allocate(app.name, app.id, 'app');
    const out = exportContainerApp(app, name, c.opts, c.secretNames);
    c.result.objects.push(out.object);
    c.result.secrets.push(...out.secrets);
  }
}

async function exportStorageZones(c: Context): Promise<void> {
  const listed = (await c.client.listStorageZones()).filter((z) => z.Deleted !== true);
  const names = new NameAllocator();
  for (const zone of listed.sort(byNumber)) {
    const name = names.allocate(String(zone.Name ?? ''), Number(zone.Id), 'storagezone');
    const out = exportStorageZone(zone, name, c.opts, c.secretNames);
    c.result.objects.push(out.object);
    c.result.secrets.push(...out.secrets);
  }
}

/** See the module comment. */
export async function exportAccount(client: CdnClient, opts: ExportOptions): Promise<ExportResult> {
  const c: Context = {
    client,
    opts,
    secretNames: new NameAllocator(),
    result: { objects: [], secrets: [], notes: [] },
    zoneNames: new Map(),
  };
  // Pull zones are read whenever shield policies are exported: they name the policies.
  if (opts.kinds.has('PullZoneConfig') || opts.kinds.has('ShieldPolicy')) await exportPullZones(c);
  if (opts.kinds.has('ShieldPolicy')) await exportShieldPolicies(c);
  if (opts.kinds.has('ContainerApp')) await exportContainerApps(c);
  if (opts.kinds.has('StorageZone')) await exportStorageZones(c);
  return c.result;
}
