/**
 * Scenario 5b: two replicas with leader election, each sending its platform calls through its
 * own tagging proxy (bench/lib/tag-proxy.ts), so cdn-sim's call log names the replica of every
 * write. While a driver keeps changing specs, the leader is frozen with SIGSTOP; the standby
 * takes over and makes its first platform write; then the old leader gets SIGCONT, its timers
 * and buffered watch events are all due at once. Fencing (src/runtime/fence.ts) must keep it
 * from writing: no platform write of the old leader may reach cdn-sim after the new leader's
 * first one, and no Kubernetes write to a managed object after the new leader's first either.
 */
import type { OperatorProcess } from '../../test/e2e/support/operator.js';
import { WRITE_VERBS } from '../lib/audit.js';
import type { BenchEnv } from '../lib/env.js';
import { createAll, objectName, patchSpec, pullZoneManifest } from '../lib/objects.js';
import { parseProm, sumProm } from '../lib/prom.js';
import { sleep } from '../lib/stats.js';
import { startTagProxy, type TagProxy } from '../lib/tag-proxy.js';
import { check, waitAllReady, type ScenarioResult } from './common.js';

/** Parameters. */
export interface LeaderStopParams {
  namespace: string;
  objects: number;
  leaseDuration: string;
  renewDeadline: string;
  retryPeriod: string;
  users: [string, string];
  /** Gap between spec changes of the driver. */
  changeEveryMs: number;
  /**
   * Simulated platform latency while the driver runs: with calls taking this long, the leader
   * is frozen with reads in flight whose answers are waiting at SIGCONT, so an unfenced
   * replica goes on to the write that follows its read (the check can fail).
   */
  platformLatencyMs?: number;
  /** How long the old leader stays running after SIGCONT before the audit. */
  afterContMs: number;
  readyTimeoutMs: number;
  /** Entry script of the replicas (default src/main.ts; `CHAOS_OPERATOR_ENTRY` overrides). */
  entry?: string;
}

async function isLeader(op: OperatorProcess): Promise<boolean> {
  const s = parseProm(await op.metrics().catch(() => ''));
  return sumProm(s, 'cdn_operator_leader') === 1;
}

async function waitFor(cond: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await cond()) return Date.now();
    await sleep(100);
  }
  return -1;
}

const tagOf = (i: number): string => `replica-${i}`;
const originOf = (name: string, seq: number): string => `https://s${seq}-${name}.example.com`;

/** Platform writes (non-GET calls) by replica tag with their sim timestamps. */
async function platformWrites(env: BenchEnv, tag: string): Promise<number[]> {
  const calls = await env.sim.calls();
  return calls.log.filter((e) => e.method !== 'GET' && e.client === tag).map((e) => e.t);
}

/** Runs the scenario; starts its own two replicas and proxies. */
export async function runLeaderStop(env: BenchEnv, p: LeaderStopParams): Promise<ScenarioResult> {
  const proxies: TagProxy[] = [];
  const ops: OperatorProcess[] = [];
  const args = [
    '--leader-elect',
    '--leader-election-namespace',
    p.namespace,
    '--leader-election-lease-duration',
    p.leaseDuration,
    '--leader-election-renew-deadline',
    p.renewDeadline,
    '--leader-election-retry-period',
    p.retryPeriod,
    '--namespace',
    p.namespace,
  ];
  const entry = p.entry ?? process.env.CHAOS_OPERATOR_ENTRY;
  const start = async (i: number, tag: string): Promise<OperatorProcess> => {
    const proxy = await startTagProxy(env.sim.url, tag);
    proxies.push(proxy);
    const op = await env.startOperator(p.namespace, {
      user: p.users[i] as string,
      apiUrl: proxy.url,
      args,
      ...(entry ? { entry } : {}),
    });
    ops.push(op);
    return op;
  };
  try {
    const pair = [await start(0, tagOf(0)), await start(1, tagOf(1))];
    // As a Deployment would: a replica that exited (lost lease) comes back, under a new tag so
    // the audit of the original processes is not mixed with its writes.
    const restartExited = async (): Promise<void> => {
      for (const [i, op] of pair.entries())
        if (op.child.exitCode !== null) await start(i, `${tagOf(i)}-restarted`);
    };
    return await drive(env, p, pair, restartExited);
  } finally {
    for (const op of ops) if (op.child.exitCode === null) op.child.kill('SIGCONT');
    for (const proxy of proxies) await proxy.close();
  }
}

async function drive(
  env: BenchEnv,
  p: LeaderStopParams,
  ops: OperatorProcess[],
  restartExited: () => Promise<void>,
): Promise<ScenarioResult> {
  let leaderIdx = -1;
  await waitFor(async () => {
    for (const [i, op] of ops.entries()) if (await isLeader(op)) leaderIdx = i;
    return leaderIdx >= 0;
  }, 60_000);
  const names = Array.from({ length: p.objects }, (_, i) => objectName(`${p.namespace}-ls`, i, 3));
  await createAll(
    env.kube,
    names.map((n) => pullZoneManifest(p.namespace, n, { originUrl: originOf(n, 0) })),
  );
  await waitAllReady(env, p.namespace, 'PullZoneConfig', p.objects, p.readyTimeoutMs);
  const old = ops[leaderIdx] as OperatorProcess;
  const next = ops[1 - leaderIdx] as OperatorProcess;
  const oldTag = tagOf(leaderIdx);
  const newTag = tagOf(1 - leaderIdx);
  if (p.platformLatencyMs) await env.sim.setFaults({ latencyMs: p.platformLatencyMs });
  // The driver: one spec change every changeEveryMs, round-robin, until told to stop.
  let driving = true;
  let seq = 0;
  const finalSeq = new Map<string, number>();
  const driver = (async (): Promise<void> => {
    while (driving) {
      seq++;
      const name = names[seq % names.length] as string;
      await patchSpec(env.kube, p.namespace, 'PullZoneConfig', name, {
        settings: { originUrl: originOf(name, seq) },
      }).then(() => finalSeq.set(name, seq));
      await sleep(p.changeEveryMs);
    }
  })();
  await sleep(3000);
  const stoppedAt = Date.now();
  old.child.kill('SIGSTOP');
  const tookOverAt = await waitFor(() => isLeader(next), 120_000);
  const newFirstWriteAt = await waitFor(
    async () => (await platformWrites(env, newTag)).length > 0,
    120_000,
  );
  await sleep(1000);
  const contAt = Date.now();
  old.child.kill('SIGCONT');
  await sleep(p.afterContMs);
  driving = false;
  await driver;
  if (p.platformLatencyMs) await env.sim.setFaults({});
  const oldExitCode = old.child.exitCode;
  const nextAlive = next.child.exitCode === null;
  await restartExited();
  let mismatches: string[] = [];
  const converged = await waitFor(async () => {
    const state = (await env.sim.state()) as unknown as {
      pullZones: Array<{ record: { Name?: string; OriginUrl?: string } }>;
    };
    const now = new Map(state.pullZones.map((z) => [z.record.Name, z.record.OriginUrl]));
    mismatches = names
      .filter((n) => now.get(n) !== originOf(n, finalSeq.get(n) ?? 0))
      .map((n) => `${n}: ${String(now.get(n))} != ${originOf(n, finalSeq.get(n) ?? 0)}`);
    return mismatches.length === 0;
  }, p.readyTimeoutMs);
  return audit(env, p, {
    oldTag,
    newTag,
    old,
    stoppedAt,
    tookOverAt,
    newFirstWriteAt,
    contAt,
    converged: converged >= 0,
    oldExitCode,
    nextAlive,
    mismatches,
    newLeaderWarnings: next
      .logs()
      .filter((l) => l.level >= 40)
      .slice(-5)
      .map((l) => `${String(l.msg)} ${JSON.stringify(l.err ?? l.reason ?? '')}`.slice(0, 200)),
    changes: seq,
    users: [p.users[leaderIdx] as string, p.users[1 - leaderIdx] as string],
  });
}

interface Timeline {
  oldTag: string;
  newTag: string;
  old: OperatorProcess;
  stoppedAt: number;
  tookOverAt: number;
  newFirstWriteAt: number;
  contAt: number;
  converged: boolean;
  oldExitCode: number | null;
  nextAlive: boolean;
  mismatches: string[];
  newLeaderWarnings: string[];
  changes: number;
  users: [string, string];
}

async function audit(env: BenchEnv, p: LeaderStopParams, x: Timeline): Promise<ScenarioResult> {
  const calls = await env.sim.calls();
  const writes = calls.log.filter((e) => e.method !== 'GET');
  const oldWrites = writes.filter((e) => e.client === x.oldTag).map((e) => e.t);
  const newWrites = writes.filter((e) => e.client === x.newTag).map((e) => e.t);
  const firstNew = Math.min(Infinity, ...newWrites);
  const oldAfter = oldWrites.filter((t) => t >= firstNew);
  const newBeforeStop = newWrites.filter((t) => t < x.stoppedAt);
  await env.audit.refresh();
  const managed = (user: string): number[] =>
    env.audit
      .select({ user, verbs: WRITE_VERBS, namespace: p.namespace, successOnly: true })
      .filter((e) => e.resource !== 'leases' && e.resource !== 'events')
      .map((e) => e.t);
  const kubeOld = managed(x.users[0]);
  const kubeNew = managed(x.users[1]);
  const kubeFirstNew = Math.min(Infinity, ...kubeNew);
  const kubeOldAfter = kubeOld.filter((t) => t >= kubeFirstNew);
  const oldExited = x.oldExitCode !== null;
  const iso = (t: number): string => (Number.isFinite(t) ? new Date(t).toISOString() : 'none');
  return {
    scenario: '5b. leader election, leader frozen with SIGSTOP then resumed',
    params: { ...p },
    figures: {
      failoverMs: x.tookOverAt < 0 ? -1 : x.tookOverAt - x.stoppedAt,
      stopToNewFirstPlatformWriteMs: x.newFirstWriteAt < 0 ? -1 : x.newFirstWriteAt - x.stoppedAt,
      stoppedForMs: x.contAt - x.stoppedAt,
      specChanges: x.changes,
      oldLeaderPlatformWrites: oldWrites.length,
      newLeaderPlatformWrites: newWrites.length,
      oldLeaderPlatformWritesAfterNewFirst: oldAfter.length,
      oldLeaderKubeWritesAfterNewFirst: kubeOldAfter.length,
      oldLeaderExitCode: x.oldExitCode,
      newLeaderStillRunning: x.nextAlive,
      oldLeaderKubeWrites: kubeOld.length,
      newLeaderWarnings: x.newLeaderWarnings,
      newLeaderKubeWrites: kubeNew.length,
    },
    checks: [
      check(
        'the standby took over while the leader was stopped',
        x.tookOverAt >= 0,
        `${x.tookOverAt - x.stoppedAt} ms`,
      ),
      check(
        'no platform write of the new leader before the stop',
        newBeforeStop.length === 0,
        `${newBeforeStop.length} writes`,
      ),
      check(
        'no platform write of the old leader after the new leader first wrote (fencing)',
        Number.isFinite(firstNew) && oldAfter.length === 0,
        `new leader first write ${iso(firstNew)}; old leader writes after it: ${oldAfter.length}${oldAfter.length ? ` (first ${iso(Math.min(...oldAfter))}, SIGCONT ${iso(x.contAt)})` : ''}`,
      ),
      check(
        'no Kubernetes write of the old leader to managed objects after the new leader first wrote',
        kubeOldAfter.length === 0,
        `new leader first write ${iso(kubeFirstNew)}; old leader writes after it: ${kubeOldAfter.length}`,
      ),
      check(
        'the old leader left after SIGCONT (exit to rejoin as standby)',
        oldExited,
        `exit code ${x.oldExitCode}`,
      ),
      check(
        'the platform holds the final specs',
        x.converged,
        x.converged ? `${p.objects} zones` : x.mismatches.slice(0, 3).join('; '),
      ),
    ],
  };
}
