/**
 * Shared pieces of the fault-injection suite: a result shape with named checks (the e2e
 * tests assert every check, `make chaos` reports them), Ready waiting and platform state
 * queries by name.
 */
import type { BenchEnv } from '../lib/env.js';
import { accountIdFor, markerKeyFor } from '../../src/cdn/credentials.js';
import { createTokenFor } from '../../src/runtime/create-guard.js';
import { collectionPath, kindNamed, type KindName } from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';

/** One named check. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** What a scenario returns. */
export interface ScenarioResult {
  scenario: string;
  params: Record<string, unknown>;
  figures: Record<string, unknown>;
  checks: Check[];
}

/** Builds a check. */
export function check(name: string, ok: boolean, detail: string): Check {
  return { name, ok, detail };
}

/** Waits until `count` objects of `kind` in `namespace` are Ready; returns the tracker (stopped). */
export async function waitAllReady(
  env: BenchEnv,
  namespace: string,
  kind: KindName,
  count: number,
  timeoutMs: number,
): Promise<{ ready: number; lastReadyAt: number }> {
  const tracker = new ReadyTracker(env.kube, collectionPath(namespace, kind));
  tracker.start();
  try {
    await tracker.waitUntil(
      () => tracker.readyCount() >= count,
      timeoutMs,
      `${count} ${kind} Ready`,
    );
  } catch {
    // reported through the count
  } finally {
    await tracker.stop();
  }
  const times = [...tracker.readyAt.values()];
  return { ready: tracker.readyCount(), lastReadyAt: Math.max(0, ...times) };
}

interface SimStateDump {
  pullZones: Array<{ record: { Name?: string; [k: string]: unknown } }>;
  apps: Array<{ app: { name?: string; [k: string]: unknown } }>;
}

/** Platform resources of a kind whose name starts with `prefix`, counted by name. */
export async function platformNames(
  env: BenchEnv,
  kind: KindName,
  prefix: string,
): Promise<Map<string, number>> {
  const state = (await env.sim.state()) as unknown as SimStateDump;
  const names =
    kind === 'ContainerApp'
      ? state.apps.map((a) => String(a.app.name ?? ''))
      : state.pullZones.map((z) => String(z.record.Name ?? ''));
  const out = new Map<string, number>();
  for (const n of names) if (n.startsWith(prefix)) out.set(n, (out.get(n) ?? 0) + 1);
  return out;
}

/**
 * The provisional name (kit/identity.ts) of every object of `kind` in `namespace`, mapped to the
 * object's name: the name its creates carried on the wire. Computed as the operator does, from
 * the account's API key (the bench's own) and each object's uid.
 */
export async function provisionalNames(
  env: BenchEnv,
  namespace: string,
  kind: KindName,
): Promise<Map<string, string>> {
  const key = markerKeyFor(env.apiKey);
  const signer = { key, account: accountIdFor(env.apiKey) };
  const list = await env.kube.request<{ items: { metadata: { name: string; uid: string } }[] }>({
    method: 'GET',
    path: collectionPath(namespace, kind),
  });
  return new Map(
    list.items.map((o) => [`cdnop-${createTokenFor(signer, o.metadata.uid)}`, o.metadata.name]),
  );
}

/** The pull zone record named `name` in the sim. */
export async function pullZoneByName(
  env: BenchEnv,
  name: string,
): Promise<Record<string, unknown> | undefined> {
  const state = (await env.sim.state()) as unknown as SimStateDump;
  return state.pullZones.find((z) => z.record.Name === name)?.record;
}

/** The first kind of `preferred` that is served (its CRD installed). */
export async function servedKind(env: BenchEnv, preferred: KindName[]): Promise<KindName> {
  const served = await env.servedKinds();
  return preferred.find((k) => served.includes(kindNamed(k).plural)) ?? 'PullZoneConfig';
}
