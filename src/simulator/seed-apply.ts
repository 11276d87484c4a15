/**
 * Applies a seed file (seed-file.ts) through cdn-sim's own request pipeline: every item is sent
 * as the create request of its route (authenticated, bound and checked like any request, then
 * handled), so a seeded account is one the API could have built. Storage zone files go straight
 * into the state (the storage endpoint's rules need no request). The first refusal stops the
 * seed with the item and the answer.
 */
import type { SimState } from './state.js';
import type { JsonObject, SimResponse } from './types.js';
import type { SeedFile } from './seed-file.js';
import { putFile } from './storage/storage-files.js';
import { contentTypeOfPath } from './storage/storage-routes.js';

/** Sends one request through the pipeline and returns the answer. */
export type Dispatch = (method: string, path: string, body: unknown) => SimResponse;

/** A seed item was refused. */
export class SeedApplyError extends Error {
  constructor(at: string, reason: string) {
    super(`cannot apply the seed: ${at}: ${reason}`);
    this.name = 'SeedApplyError';
  }
}

/** Ids of what the seed created, by kind. */
export type SeedResult = Record<keyof SeedFile, Array<number | string>>;

interface Context {
  dispatch: Dispatch;
  state: SimState;
  pullZones: Map<string, number>;
}

function create(ctx: Context, at: string, method: string, path: string, body: unknown): JsonObject {
  const res = ctx.dispatch(method, path, body);
  if (res.status >= 300) {
    const detail = res.body === undefined ? '(no body)' : JSON.stringify(res.body).slice(0, 400);
    throw new SeedApplyError(at, `${method} ${path} answered ${res.status} ${detail}`);
  }
  return (res.body ?? {}) as JsonObject;
}

function pullZoneId(ctx: Context, at: string, name: unknown): number {
  const id = typeof name === 'string' ? ctx.pullZones.get(name.toLowerCase()) : undefined;
  if (id === undefined) throw new SeedApplyError(at, `no pull zone ${String(name)} in the seed`);
  return id;
}

function seedStorageZone(ctx: Context, item: JsonObject, at: string): number {
  const { files, ...body } = item;
  const id = Number(create(ctx, at, 'POST', '/storagezone', body).Id);
  for (const [path, content] of Object.entries((files ?? {}) as Record<string, string>)) {
    const clean = path.replace(/^\/+/, '');
    putFile(ctx.state, id, clean, Buffer.from(content), contentTypeOfPath(clean));
  }
  return id;
}

function seedPullZone(ctx: Context, item: JsonObject, at: string): number {
  const id = Number(create(ctx, at, 'POST', '/pullzone', item).Id);
  ctx.pullZones.set(String(item.Name).toLowerCase(), id);
  return id;
}

function seedDnsZone(ctx: Context, item: JsonObject, at: string): number {
  const { records, ...body } = item;
  const id = Number(create(ctx, at, 'POST', '/dnszone', body).Id);
  ((records ?? []) as JsonObject[]).forEach((record, i) => {
    const where = `${at}.records[${i}]`;
    const { pullZone, ...rest } = record;
    const wire =
      pullZone === undefined ? rest : { ...rest, PullZoneId: pullZoneId(ctx, where, pullZone) };
    create(ctx, where, 'PUT', `/dnszone/${id}/records`, wire);
  });
  return id;
}

function seedShieldZone(ctx: Context, item: JsonObject, at: string): number {
  const { pullZone, ...rest } = item;
  const body = { ...rest, pullZoneId: pullZoneId(ctx, at, pullZone) };
  const answer = create(ctx, at, 'POST', '/shield/shield-zone', body);
  const data = answer.data as { shieldZone?: { shieldZoneId?: number } } | undefined;
  return Number(data?.shieldZone?.shieldZoneId);
}

function seedApp(ctx: Context, item: JsonObject, at: string): string {
  return String(create(ctx, at, 'POST', '/mc/apps', item).id);
}

const SEEDERS: Record<
  keyof SeedFile,
  (ctx: Context, item: JsonObject, at: string) => number | string
> = {
  storageZones: seedStorageZone,
  pullZones: seedPullZone,
  dnsZones: seedDnsZone,
  shieldZones: seedShieldZone,
  apps: seedApp,
};

/** Creates everything the seed holds, kind by kind in the file's order of kinds. */
export function applySeed(seed: SeedFile, dispatch: Dispatch, state: SimState): SeedResult {
  const ctx: Context = { dispatch, state, pullZones: new Map() };
  const result = {} as SeedResult;
  for (const section of Object.keys(SEEDERS) as Array<keyof SeedFile>) {
    result[section] = seed[section].map((item, i) =>
      SEEDERS[section](ctx, item, `${section}[${i}]`),
    );
  }
  return result;
}
