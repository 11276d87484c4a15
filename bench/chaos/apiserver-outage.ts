/**
 * Scenario 4: the kube-apiserver is stopped (etcd keeps running) for `outageMs` while the
 * operator runs. Spec changes made just before the stop and just after the restart all
 * reach the platform (0 missed), and each informer relists at most once after resume
 * (operator metric `informer_relists_total` and the audit log's list requests).
 */
import type { OperatorProcess } from '../../test/e2e/support/operator.js';
import type { BenchEnv } from '../lib/env.js';
import { OPERATOR_USER } from '../lib/env.js';
import { createAll, objectName, patchSpec, pullZoneManifest } from '../lib/objects.js';
import { groupProm, parseProm } from '../lib/prom.js';
import { sleep } from '../lib/stats.js';
import { check, pullZoneByName, waitAllReady, type ScenarioResult } from './common.js';

/** Parameters. */
export interface OutageParams {
  namespace: string;
  objects: number;
  outageMs: number;
  changeTimeoutMs: number;
}

async function relists(op: OperatorProcess): Promise<Record<string, number>> {
  const samples = parseProm(await op.metrics()).filter((s) => s.labels.reason !== 'initial');
  return groupProm(samples, 'cdn_operator_informer_relists_total', 'resource');
}

async function changesLanded(env: BenchEnv, want: Map<string, number>): Promise<number> {
  let ok = 0;
  for (const [name, value] of want) {
    const zone = await pullZoneByName(env, name);
    if (zone?.CacheControlMaxAgeOverride === value) ok++;
  }
  return ok;
}

/** Runs the scenario with a running operator. */
export async function runApiserverOutage(
  env: BenchEnv,
  op: OperatorProcess,
  p: OutageParams,
): Promise<ScenarioResult> {
  const prefix = `${p.namespace}-out`;
  const names = Array.from({ length: p.objects }, (_, i) => objectName(prefix, i, 4));
  await createAll(
    env.kube,
    names.map((n) => pullZoneManifest(p.namespace, n)),
  );
  await waitAllReady(env, p.namespace, 'PullZoneConfig', p.objects, p.changeTimeoutMs);
  const relistsBefore = await relists(op);
  const want = new Map<string, number>();
  const half = Math.ceil(p.objects / 2);
  for (const [i, n] of names.slice(0, half).entries()) {
    want.set(n, 1000 + i);
    await patchSpec(env.kube, p.namespace, 'PullZoneConfig', n, {
      settings: {
        originUrl: `https://origin-${n}.example.com`,
        cacheControlMaxAgeOverrideSeconds: 1000 + i,
      },
    });
  }
  await env.cp.stopApiserver();
  const stoppedAt = Date.now();
  await sleep(p.outageMs);
  await env.cp.startApiserver();
  const resumedAt = Date.now();
  for (const [i, n] of names.slice(half).entries()) {
    want.set(n, 2000 + i);
    await patchSpec(env.kube, p.namespace, 'PullZoneConfig', n, {
      settings: {
        originUrl: `https://origin-${n}.example.com`,
        cacheControlMaxAgeOverrideSeconds: 2000 + i,
      },
    });
  }
  const deadline = Date.now() + p.changeTimeoutMs;
  let landed = 0;
  while (Date.now() < deadline && (landed = await changesLanded(env, want)) < want.size)
    await sleep(1000);
  const convergedMs = Date.now() - resumedAt;
  await sleep(3000);
  const relistsAfter = await relists(op);
  const delta: Record<string, number> = {};
  for (const [r, v] of Object.entries(relistsAfter)) delta[r] = v - (relistsBefore[r] ?? 0);
  await env.audit.refresh();
  const auditLists = env.audit.breakdown({ from: stoppedAt, user: OPERATOR_USER, verbs: ['list'] });
  const maxRelists = Math.max(0, ...Object.values(delta));
  const maxAuditLists = Math.max(0, ...Object.values(auditLists));
  return {
    scenario: `4. apiserver stopped for ${Math.round(p.outageMs / 1000)} s`,
    params: { ...p },
    figures: {
      changes: want.size,
      landed,
      convergedAfterResumeMs: convergedMs,
      relistsByResource: delta,
      auditListsByResource: auditLists,
      operatorAlive: op.child.exitCode === null,
    },
    checks: [
      check(
        '0 missed spec changes',
        landed === want.size,
        `${landed}/${want.size} changes on the platform`,
      ),
      check('at most one relist per informer (metric)', maxRelists <= 1, JSON.stringify(delta)),
      check(
        'at most one list per resource after resume (audit log)',
        maxAuditLists <= 1,
        JSON.stringify(auditLists),
      ),
      check(
        'operator kept running',
        op.child.exitCode === null,
        `exit code ${String(op.child.exitCode)}`,
      ),
    ],
  };
}
