/**
 * Scenario 3: `kill -9` of the operator at random moments while objects are created, with the
 * sim applying a share of writes and then dropping the response ("commit then drop").
 * Afterwards exactly one platform resource per object (no duplicates, no orphans) and every
 * object Ready after the last restart.
 */
import type { CallsSnapshot } from '../../src/simulator/calls.js';
import type { BenchEnv } from '../lib/env.js';
import { createAll, kindNamed, objectName, sampleManifest, type KindName } from '../lib/objects.js';
import { sleep } from '../lib/stats.js';
import {
  check,
  platformNames,
  provisionalNames,
  servedKind,
  waitAllReady,
  type ScenarioResult,
} from './common.js';

/** Parameters. */
export interface KillRestartParams {
  namespace: string;
  creates: number;
  kills: number;
  /** Random gap between a restart being ready and the next kill. */
  minGapMs: number;
  maxGapMs: number;
  commitThenDropRate: number;
  operatorArgs: string[];
  readyTimeoutMs: number;
}

/**
 * Creates the platform applied per object name, from cdn-sim's call log: answered 2xx, or
 * applied and then dropped unanswered (`committed`). Unlike counting platform resources by
 * name this can fail even where the platform refuses a second resource of the same name: a
 * second successful create for one object is a duplicate whatever the names.
 */
export function successfulCreates(
  snapshot: CallsSnapshot,
  route: string,
  names: Set<string>,
  provisional: ReadonlyMap<string, string> = new Map(),
): { perObject: Map<string, number>; total: number; complete: boolean } {
  const perObject = new Map<string, number>();
  let total = 0;
  let logged = 0;
  for (const e of snapshot.log) {
    if (e.route !== route) continue;
    logged++;
    const ok = (e.status >= 200 && e.status < 300) || e.committed === true;
    // A create of a kind whose names are not unique carries the object's provisional name.
    const name = e.name === undefined ? undefined : (provisional.get(e.name) ?? e.name);
    if (!ok || name === undefined || !names.has(name)) continue;
    perObject.set(name, (perObject.get(name) ?? 0) + 1);
    total++;
  }
  // Every call of the route since the last reset must still be in the log.
  const complete = logged === (snapshot.routes[route]?.count ?? 0);
  return { perObject, total, complete };
}

/** Runs the scenario; starts and kills its own operator processes. */
export async function runKillRestart(env: BenchEnv, p: KillRestartParams): Promise<ScenarioResult> {
  const kind: KindName = await servedKind(env, ['ContainerApp', 'PullZoneConfig']);
  const prefix = `${p.namespace}-kr`;
  const manifests = Array.from({ length: p.creates }, (_, i) => {
    const name = objectName(prefix, i, 4);
    return sampleManifest(kindNamed(kind), p.namespace, name);
  });
  const writeRoute = kind === 'ContainerApp' ? 'POST /mc/apps' : 'POST /pullzone';
  await env.sim.setFaults({ commitThenDropRate: p.commitThenDropRate, errorRoutes: [writeRoute] });
  let op = await env.startOperator(p.namespace, { args: p.operatorArgs });
  const creating = createAll(env.kube, manifests, 4);
  const pids: number[] = [];
  for (let k = 0; k < p.kills; k++) {
    await sleep(p.minGapMs + Math.random() * (p.maxGapMs - p.minGapMs));
    pids.push(op.pid);
    await op.kill();
    op = await env.startOperator(p.namespace, { args: p.operatorArgs });
  }
  await creating;
  const before = await env.sim.calls();
  await env.sim.setFaults({});
  const { ready } = await waitAllReady(env, p.namespace, kind, p.creates, p.readyTimeoutMs);
  const after = await env.sim.calls();
  const dropped =
    (after.routes[writeRoute]?.byStatus['0'] ?? 0) -
    (before.routes[writeRoute]?.byStatus['0'] ?? 0);
  const names = await platformNames(env, kind, prefix);
  const provisional = await provisionalNames(env, p.namespace, kind);
  // A resource left under its provisional name (never renamed) is an orphan too.
  const unrenamed = [...(await platformNames(env, kind, 'cdnop-')).values()].reduce(
    (s, c) => s + c,
    0,
  );
  const expected = new Set(manifests.map((m) => m.metadata.name));
  const creates = successfulCreates(after, writeRoute, expected, provisional);
  const notOnce = [...expected].filter((n) => creates.perObject.get(n) !== 1);
  const duplicates = [...names.values()].reduce((s, c) => s + (c - 1), 0);
  const orphans = [...names.keys()].filter((n) => !expected.has(n)).length + unrenamed;
  const missing = [...expected].filter((n) => !names.has(n)).length;
  return {
    scenario: '3. kill -9 during creates with commit-then-drop',
    params: { ...p, kind },
    figures: {
      kind,
      kills: pids.length,
      committedThenDropped: after.routes[writeRoute]?.byStatus['0'] ?? 0,
      droppedAfterLastRestart: dropped,
      platformResources: [...names.values()].reduce((s, c) => s + c, 0),
      duplicates,
      orphans,
      missing,
      ready,
      successfulCreates: creates.total,
      objectsNotCreatedExactlyOnce: notOnce.length,
    },
    checks: [
      check(
        'exactly one successful create per object (cdn-sim call log, commit-then-drop included)',
        creates.complete && notOnce.length === 0,
        creates.complete
          ? `${creates.total} successful creates for ${expected.size} objects${
              notOnce.length
                ? `; not once: ${notOnce
                    .slice(0, 5)
                    .map((n) => `${n}=${creates.perObject.get(n) ?? 0}`)
                    .join(', ')}`
                : ''
            }`
          : 'the call log was trimmed: cannot count',
      ),
      check(
        `exactly ${p.creates} resources on the platform`,
        duplicates === 0 && missing === 0 && names.size === p.creates,
        `${names.size} names, ${duplicates} duplicates, ${missing} missing`,
      ),
      check('no orphans', orphans === 0, `${orphans} platform resources without an object`),
      check('all Ready after the last restart', ready === p.creates, `${ready}/${p.creates}`),
      check(`operator killed ${p.kills} times`, pids.length === p.kills, `${pids.length} kills`),
    ],
  };
}
