/**
 * Scenario 8, the slow platform (issue 29): every create is answered after the operator's CDN
 * client gave up (cdn-sim `slowCommit`: the platform holds the POST longer than the client's
 * 30 s timeout, then commits it), and a new resource shows in its collection's listing only a
 * few seconds after that (`listingDelayMs`), for every kind: PullZoneConfig, StorageZone,
 * ContainerApp and ShieldPolicy (on the scenario's own pull zones).
 *
 * The operator must neither create again while the late resource may still show up (a
 * duplicate app, or "name taken" by its own pull or storage zone, which used to leak the zone)
 * nor lose it: at the end each object has exactly one platform resource, the one recorded in
 * its status, and after the objects are deleted none of them is left.
 */
import type { BenchEnv } from '../lib/env.js';
import {
  collectionPath,
  createAll,
  kindNamed,
  objectName,
  sampleManifest,
  type Manifest,
} from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { sleep } from '../lib/stats.js';
import { check, type Check, type ScenarioResult } from './common.js';

/** Parameters. */
export interface SlowPlatformParams {
  namespace: string;
  /** Objects of each kind. */
  perKind: number;
  /** How long the platform holds every create: above the CDN client's timeout (30 s). */
  commitDelayMs: number;
  /** How long a new resource stays out of its collection's listing after the create. */
  listingDelayMs: number;
  readyTimeoutMs: number;
  goneTimeoutMs: number;
}

/** The create routes held by the platform. */
export const CREATE_ROUTES = [
  'POST /pullzone',
  'POST /storagezone',
  'POST /mc/apps',
  'POST /shield/shield-zone',
];

/**
 * What the scenario checks per kind (names, plurals and sample objects come from the list of
 * kinds; the platform side, its create route and how to find its resources, is the scenario's).
 */
interface SlowKind {
  kind: string;
  /** Short name used in object names. */
  short: string;
  /** The status field holding the platform id. */
  idField: string;
  create: string;
}

/** In list order: a ShieldPolicy comes after the PullZoneConfig it protects. */
const KINDS: SlowKind[] = [
  { kind: 'PullZoneConfig', short: 'pz', idField: 'pullZoneId', create: CREATE_ROUTES[0]! },
  { kind: 'StorageZone', short: 'sz', idField: 'storageZoneId', create: CREATE_ROUTES[1]! },
  { kind: 'ContainerApp', short: 'app', idField: 'appId', create: CREATE_ROUTES[2]! },
  { kind: 'ShieldPolicy', short: 'sp', idField: 'shieldZoneId', create: CREATE_ROUTES[3]! },
];

type Json = Record<string, unknown>;

interface SimState {
  pullZones: Array<{ record: { Id?: number; Name?: string } }>;
  storageZones: Array<{ Id: number; Name: string; Deleted?: boolean }>;
  apps: Array<{ app: { id?: string; name?: string } }>;
  shieldZones: Array<{ shieldZoneId?: number; pullZoneId?: number }>;
}

interface KubeItem {
  metadata: { name: string };
  spec?: Json;
  status?: Json;
}

/**
 * The manifests: `perKind` sample objects of each kind, object i of a kind referring to object
 * i of the kinds it refers to (policy i protects pull zone i).
 */
function manifests(ns: string, prefix: string, n: number): Manifest[] {
  const out: Manifest[] = [];
  for (let i = 0; i < n; i++) {
    const name = (kind: string): string => {
      const short = KINDS.find((k) => k.kind === kind)?.short ?? kind.toLowerCase();
      return objectName(`${prefix}-${short}`, i, 2);
    };
    for (const k of KINDS) out.push(sampleManifest(kindNamed(k.kind), ns, name(k.kind), name));
  }
  return out;
}

async function listItems(env: BenchEnv, ns: string, kind: string): Promise<KubeItem[]> {
  const res = await env.kube.request<{ items: KubeItem[] }>({
    method: 'GET',
    path: collectionPath(ns, kind),
  });
  return res.items;
}

async function waitReady(
  env: BenchEnv,
  ns: string,
  kind: SlowKind,
  n: number,
  ms: number,
): Promise<number> {
  const tracker = new ReadyTracker(env.kube, collectionPath(ns, kind.kind));
  tracker.start();
  try {
    await tracker.waitUntil(() => tracker.readyCount() >= n, ms, `${n} ${kind.kind} Ready`);
  } catch {
    // reported through the count
  } finally {
    await tracker.stop();
  }
  return tracker.readyCount();
}

/** Platform resources matching one object (by name, or by pull zone for a shield zone). */
function platformIds(
  state: SimState,
  kind: SlowKind,
  item: KubeItem,
  zoneIds: Map<string, number>,
): string[] {
  const name = typeof item.spec?.name === 'string' ? item.spec.name : item.metadata.name;
  switch (kind.kind) {
    case 'PullZoneConfig':
      return state.pullZones.filter((z) => z.record.Name === name).map((z) => String(z.record.Id));
    case 'StorageZone':
      return state.storageZones
        .filter((z) => z.Name === name && !z.Deleted)
        .map((z) => String(z.Id));
    case 'ContainerApp':
      return state.apps.filter((a) => a.app.name === name).map((a) => String(a.app.id));
    default: {
      const ref = (item.spec?.pullZoneRef as { name?: string } | undefined)?.name ?? '';
      const zone = zoneIds.get(ref);
      return state.shieldZones
        .filter((s) => zone !== undefined && s.pullZoneId === zone)
        .map((s) => String(s.shieldZoneId));
    }
  }
}

interface Tally {
  objects: number;
  exactlyOne: number;
  recorded: number;
  problems: string[];
}

/** Per kind: objects with exactly one platform resource, and with its id in their status. */
async function tally(env: BenchEnv, ns: string): Promise<Record<string, Tally>> {
  const state = (await env.sim.state()) as unknown as SimState;
  const items = new Map<string, KubeItem[]>();
  for (const k of KINDS) items.set(k.kind, await listItems(env, ns, k.kind));
  const zoneIds = new Map(
    state.pullZones.map((z) => [String(z.record.Name), Number(z.record.Id)] as const),
  );
  const out: Record<string, Tally> = {};
  for (const k of KINDS) {
    const t: Tally = { objects: 0, exactlyOne: 0, recorded: 0, problems: [] };
    for (const item of items.get(k.kind) ?? []) {
      t.objects++;
      const ids = platformIds(state, k, item, zoneIds);
      const recorded = item.status?.[k.idField];
      if (ids.length === 1) t.exactlyOne++;
      else t.problems.push(`${item.metadata.name}: ${ids.length} resources`);
      if (ids.length === 1 && String(recorded) === ids[0]) t.recorded++;
      else if (ids.length === 1)
        t.problems.push(`${item.metadata.name}: status ${String(recorded)}, platform ${ids[0]}`);
    }
    out[k.kind] = t;
  }
  return out;
}

/** Platform resources left whose name starts with `prefix` (shield zones: of gone pull zones). */
async function leftovers(env: BenchEnv, prefix: string): Promise<Record<string, number>> {
  const state = (await env.sim.state()) as unknown as SimState;
  const zones = state.pullZones.filter((z) => String(z.record.Name).startsWith(prefix));
  const zoneIds = new Set(zones.map((z) => z.record.Id));
  return {
    PullZoneConfig: zones.length,
    StorageZone: state.storageZones.filter((z) => z.Name.startsWith(prefix) && !z.Deleted).length,
    ContainerApp: state.apps.filter((a) => String(a.app.name).startsWith(prefix)).length,
    ShieldPolicy: state.shieldZones.filter((s) => zoneIds.has(s.pullZoneId)).length,
  };
}

async function deleteAll(env: BenchEnv, ns: string, timeoutMs: number): Promise<number> {
  for (const k of KINDS) {
    for (const item of await listItems(env, ns, k.kind))
      await env.kube.request({
        method: 'DELETE',
        path: `${collectionPath(ns, k.kind)}/${item.metadata.name}`,
      });
  }
  const deadline = Date.now() + timeoutMs;
  let left = Infinity;
  while (Date.now() < deadline) {
    left = 0;
    for (const k of KINDS) left += (await listItems(env, ns, k.kind)).length;
    if (left === 0) break;
    await sleep(2000);
  }
  return left;
}

/** Create POSTs the platform received per kind since `from` (ms). */
async function createsSent(env: BenchEnv, from: number): Promise<Record<string, number>> {
  const log = await env.sim.logSince(from);
  return Object.fromEntries(
    KINDS.map((k) => [k.kind, log.filter((e) => e.route === k.create).length]),
  );
}

function kindChecks(
  counts: Record<string, Tally>,
  creates: Record<string, number>,
  n: number,
): Check[] {
  return KINDS.flatMap((k) => {
    const t = counts[k.kind]!;
    return [
      check(
        `${k.kind}: exactly one platform resource per object, the one recorded in status`,
        t.objects === n && t.exactlyOne === n && t.recorded === n,
        `${t.exactlyOne}/${n} with one resource, ${t.recorded}/${n} recorded${t.problems.length ? `; ${t.problems.slice(0, 5).join('; ')}` : ''}`,
      ),
      check(
        `${k.kind}: one create per object (none sent again while the late one could show up)`,
        creates[k.kind] === n,
        `${creates[k.kind]} creates for ${n} objects`,
      ),
    ];
  });
}

/** Runs the scenario (operator already running, account open to `namespace`). */
export async function runSlowPlatform(
  env: BenchEnv,
  p: SlowPlatformParams,
): Promise<ScenarioResult> {
  const prefix = `${p.namespace}-slow`;
  await env.sim.setFaults({
    slowCommit: { routes: CREATE_ROUTES, delayMs: p.commitDelayMs },
    listingDelayMs: p.listingDelayMs,
  });
  const started = Date.now();
  try {
    // One at a time, in list order (a policy after its pull zone).
    await createAll(env.kube, manifests(p.namespace, prefix, p.perKind), 1);
    const ready = Object.fromEntries(
      await Promise.all(
        KINDS.map(
          async (k) =>
            [k.kind, await waitReady(env, p.namespace, k, p.perKind, p.readyTimeoutMs)] as const,
        ),
      ),
    );
    const readyAfterMs = Date.now() - started;
    const counts = await tally(env, p.namespace);
    const creates = await createsSent(env, started);
    const objectsLeft = await deleteAll(env, p.namespace, p.goneTimeoutMs);
    const left = await leftovers(env, prefix);
    const leftTotal = Object.values(left).reduce((a, b) => a + b, 0);
    return {
      scenario:
        '8. slow platform: every create answered after the client timeout, late in listings',
      params: { ...p },
      figures: {
        ready,
        readyAfterMs,
        perKind: counts,
        createsSent: creates,
        objectsLeft,
        platformLeftAfterDelete: left,
      },
      checks: [
        check(
          'every object Ready',
          KINDS.every((k) => ready[k.kind] === p.perKind),
          KINDS.map((k) => `${k.kind} ${ready[k.kind]}/${p.perKind}`).join(', '),
        ),
        ...kindChecks(counts, creates, p.perKind),
        check(
          'every object deleted (finalizers released)',
          objectsLeft === 0,
          `${objectsLeft} left`,
        ),
        check(
          'no platform resource left after deletion',
          leftTotal === 0,
          Object.entries(left)
            .map(([k, v]) => `${k} ${v}`)
            .join(', '),
        ),
      ],
    };
  } finally {
    await env.sim.setFaults({});
  }
}
