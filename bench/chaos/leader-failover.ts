/**
 * Scenario 5: two replicas with leader election; the leader is killed with SIGKILL. Failover
 * time (kill → the standby reports itself leader), objects created after the kill become
 * Ready, and never two replicas reconciling at once: the standby has 0 reconciles while the
 * leader lives, and in the audit log the two identities' writes to managed objects (leases
 * and events aside) do not interleave.
 */
import type { OperatorProcess } from '../../test/e2e/support/operator.js';
import { WRITE_VERBS } from '../lib/audit.js';
import type { BenchEnv } from '../lib/env.js';
import { createAll, objectName, pullZoneManifest } from '../lib/objects.js';
import { parseProm, sumProm } from '../lib/prom.js';
import { sleep } from '../lib/stats.js';
import { check, waitAllReady, type ScenarioResult } from './common.js';

/** Parameters. */
export interface FailoverParams {
  namespace: string;
  objectsBefore: number;
  objectsAfter: number;
  leaseDuration: string;
  renewDeadline: string;
  retryPeriod: string;
  users: [string, string];
  readyTimeoutMs: number;
}

async function scrape(op: OperatorProcess): Promise<{ leader: number; reconciles: number }> {
  const s = parseProm(await op.metrics().catch(() => ''));
  return {
    leader: sumProm(s, 'cdn_operator_leader'),
    reconciles: sumProm(s, 'cdn_operator_reconcile_total'),
  };
}

async function waitLeader(ops: OperatorProcess[], timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const [i, op] of ops.entries()) if ((await scrape(op)).leader === 1) return i;
    await sleep(100);
  }
  return -1;
}

/** Runs the scenario; starts its own two replicas. */
export async function runLeaderFailover(env: BenchEnv, p: FailoverParams): Promise<ScenarioResult> {
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
  const ops = [
    await env.startOperator(p.namespace, { user: p.users[0], args }),
    await env.startOperator(p.namespace, { user: p.users[1], args }),
  ];
  const leaderIdx = await waitLeader(ops, 60_000);
  const prefix = `${p.namespace}-le`;
  await createAll(
    env.kube,
    Array.from({ length: p.objectsBefore }, (_, i) =>
      pullZoneManifest(p.namespace, objectName(prefix, i, 4)),
    ),
  );
  await waitAllReady(env, p.namespace, 'PullZoneConfig', p.objectsBefore, p.readyTimeoutMs);
  const standbyIdx = 1 - leaderIdx;
  const leader = ops[leaderIdx] as OperatorProcess;
  const standby = ops[standbyIdx] as OperatorProcess;
  const standbyBefore = await scrape(standby);
  const killedAt = Date.now();
  await leader.kill();
  await createAll(
    env.kube,
    Array.from({ length: p.objectsAfter }, (_, i) =>
      pullZoneManifest(p.namespace, objectName(prefix, p.objectsBefore + i, 4)),
    ),
  );
  let failoverMs = -1;
  while (Date.now() - killedAt < 120_000) {
    if ((await scrape(standby)).leader === 1) {
      failoverMs = Date.now() - killedAt;
      break;
    }
    await sleep(100);
  }
  const total = p.objectsBefore + p.objectsAfter;
  const { ready, lastReadyAt } = await waitAllReady(
    env,
    p.namespace,
    'PullZoneConfig',
    total,
    p.readyTimeoutMs,
  );
  await env.audit.refresh();
  const managed = (user: string): number[] =>
    env.audit
      .select({ user, verbs: WRITE_VERBS, namespace: p.namespace, successOnly: true })
      .filter((e) => e.resource !== 'leases' && e.resource !== 'events')
      .map((e) => e.t);
  const leaderWrites = managed(p.users[leaderIdx] as string);
  const standbyWrites = managed(p.users[standbyIdx] as string);
  const lastLeaderWrite = Math.max(0, ...leaderWrites);
  const firstStandbyWrite = Math.min(Infinity, ...standbyWrites);
  await standby.stop();
  return {
    scenario: '5. leader election, leader killed',
    params: { ...p },
    figures: {
      failoverMs,
      killToAllReadyMs: lastReadyAt - killedAt,
      standbyReconcilesWhileLeaderAlive: standbyBefore.reconciles,
      leaderWrites: leaderWrites.length,
      standbyWrites: standbyWrites.length,
      lastLeaderWriteBeforeKillMs: killedAt - lastLeaderWrite,
      firstStandbyWriteAfterKillMs: firstStandbyWrite - killedAt,
      ready,
    },
    checks: [
      check('a leader was elected', leaderIdx >= 0, `replica ${leaderIdx}`),
      check('the standby took over', failoverMs >= 0, `failover ${failoverMs} ms`),
      check(
        'standby did not reconcile while the leader lived',
        standbyBefore.reconciles === 0,
        `${standbyBefore.reconciles} reconciles`,
      ),
      check(
        'writes of the two replicas do not interleave',
        standbyWrites.length === 0 || firstStandbyWrite > lastLeaderWrite,
        `leader last write ${new Date(lastLeaderWrite).toISOString()}, standby first write ${Number.isFinite(firstStandbyWrite) ? new Date(firstStandbyWrite).toISOString() : 'none'}`,
      ),
      check('all Ready after failover', ready === total, `${ready}/${total}`),
    ],
  };
}
