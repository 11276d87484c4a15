/**
 * Scenario 6: generated invalid manifests (bench/chaos/invalid-manifests.ts). Each is either
 * rejected by the apiserver (strict field validation, as kubectl sends) with a message that
 * names the broken field, or accepted and then marked Synced=False by the operator. No
 * platform call happens during the run and the operator process never restarts.
 */
import type { OperatorProcess } from '../../test/e2e/support/operator.js';
import { KubeApiError } from '../../src/runtime/kube-client.js';
import type { BenchEnv } from '../lib/env.js';
import { collectionPath } from '../lib/objects.js';
import { diffCounters } from '../lib/sim.js';
import { mapLimit, sleep } from '../lib/stats.js';
import { check, type ScenarioResult } from './common.js';
import { invalidCases, type InvalidCase } from './invalid-manifests.js';

/** Parameters. */
export interface BadInputParams {
  namespace: string;
  cases: number;
  terminalTimeoutMs: number;
}

interface Outcome {
  id: string;
  field: string;
  outcome: 'rejected' | 'accepted';
  message: string;
  namesField: boolean;
  terminal?: boolean;
}

function lastSegment(field: string): string {
  const parts = field.replace(/\[\d+\]/g, '').split('.');
  return parts[parts.length - 1] ?? field;
}

async function submit(env: BenchEnv, c: InvalidCase): Promise<Outcome> {
  const base = { id: c.id, field: c.field };
  try {
    await env.kube.request({
      method: 'POST',
      path: collectionPath(c.manifest.metadata.namespace, c.manifest.kind),
      query: { fieldValidation: 'Strict' },
      body: c.manifest,
      timeoutMs: 60_000,
    });
    return { ...base, outcome: 'accepted', message: '', namesField: false };
  } catch (err) {
    const message = err instanceof KubeApiError ? err.message : String(err);
    return {
      ...base,
      outcome: 'rejected',
      message: message.slice(0, 400),
      namesField: message.includes(lastSegment(c.field)) || c.field === 'spec',
    };
  }
}

interface Cond {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

async function syncedFalse(env: BenchEnv, c: InvalidCase): Promise<Cond | undefined> {
  const obj = await env.kube.request<{ status?: { conditions?: Cond[] } }>({
    method: 'GET',
    path: `${collectionPath(c.manifest.metadata.namespace, c.manifest.kind)}/${c.manifest.metadata.name}`,
  });
  const synced = obj.status?.conditions?.find((x) => x.type === 'Synced');
  return synced?.status === 'False' ? synced : undefined;
}

/** Runs the scenario with a running operator (nothing else may be active in the sim). */
export async function runBadInput(
  env: BenchEnv,
  op: OperatorProcess,
  p: BadInputParams,
): Promise<ScenarioResult> {
  const all = invalidCases(p.namespace, await env.servedKinds());
  const step = Math.max(1, all.length / p.cases);
  const cases = Array.from(
    { length: Math.min(p.cases, all.length) },
    (_, i) => all[Math.floor(i * step)] as InvalidCase,
  );
  const before = await env.sim.calls();
  const outcomes = await mapLimit(cases, 8, (c) => submit(env, c));
  const accepted = cases.filter((_, i) => outcomes[i]?.outcome === 'accepted');
  const deadline = Date.now() + p.terminalTimeoutMs;
  for (const [i, c] of cases.entries()) {
    const o = outcomes[i] as Outcome;
    if (o.outcome !== 'accepted') continue;
    let cond: Cond | undefined;
    while (!(cond = await syncedFalse(env, c).catch(() => undefined)) && Date.now() < deadline)
      await sleep(500);
    o.terminal = cond !== undefined;
    o.message = cond
      ? `${cond.reason ?? ''}: ${cond.message ?? ''}`.slice(0, 400)
      : 'not marked Synced=False';
    o.namesField = o.message.includes(lastSegment(c.field));
  }
  await sleep(2000);
  const calls = diffCounters(before, await env.sim.calls());
  const rejected = outcomes.filter((o) => o.outcome === 'rejected');
  const unclear = rejected.filter((o) => !o.namesField);
  const notTerminal = outcomes.filter((o) => o.outcome === 'accepted' && !o.terminal);
  const restarts = op.child.exitCode === null ? 0 : 1;
  return {
    scenario: '6. invalid manifests',
    params: { ...p },
    figures: {
      cases: cases.length,
      rejectedByApiserver: rejected.length,
      acceptedThenSyncedFalse: outcomes.filter((o) => o.terminal).length,
      acceptedNotMarked: notTerminal.map((o) => o.id),
      rejectedWithoutFieldName: unclear.map((o) => ({ id: o.id, message: o.message })),
      platformCalls: calls.total,
      platformCallsByRoute: calls.byRoute,
      acceptedCases: accepted.map((c) => c.id),
      sampleMessages: outcomes
        .slice(0, 8)
        .map((o) => ({ id: o.id, message: o.message.slice(0, 200) })),
      operatorRestarts: restarts,
    },
    checks: [
      check(
        'every rejection names the field',
        unclear.length === 0,
        `${unclear.length} of ${rejected.length} rejections do not name the field`,
      ),
      check(
        'every accepted invalid object marked Synced=False',
        notTerminal.length === 0,
        `${notTerminal.length} of ${accepted.length} not marked`,
      ),
      check('0 platform calls', calls.total === 0, JSON.stringify(calls.byRoute)),
      check(
        'operator never restarted',
        restarts === 0,
        `pid ${op.pid}, exit code ${String(op.child.exitCode)}`,
      ),
    ],
  };
}
