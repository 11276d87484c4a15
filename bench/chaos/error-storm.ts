/**
 * Scenario 1: a 5xx storm (share `errorRate` of every API route answered 500) for
 * `stormMs` while `creates` PullZoneConfigs are created. Afterwards every object is Ready,
 * no zone exists twice, and the calls made during the storm stay within what the backoff
 * and the client's per-account rate limit allow.
 */
import type { BenchEnv } from '../lib/env.js';
import { createAll, objectName, pullZoneManifest } from '../lib/objects.js';
import { diffCounters } from '../lib/sim.js';
import { sleep } from '../lib/stats.js';
import { check, platformNames, waitAllReady, type ScenarioResult } from './common.js';

/** Parameters. */
export interface ErrorStormParams {
  namespace: string;
  creates: number;
  errorRate: number;
  stormMs: number;
  /** The operator's CDN client limit (requests/s, burst); bounds the storm's calls. */
  clientRatePerSecond: number;
  clientBurst: number;
  readyTimeoutMs: number;
  /** A Secret key used as a write-only setting, so Secret values flow through the operator. */
  secretRef?: { name: string; key: string };
}

/** Default client limits of src/cdn/options.ts (20/s, burst 40). */
export const CLIENT_LIMITS = { clientRatePerSecond: 20, clientBurst: 40 };

/** Runs the scenario (operator already running). */
export async function runErrorStorm(env: BenchEnv, p: ErrorStormParams): Promise<ScenarioResult> {
  const prefix = `${p.namespace}-storm`;
  await env.sim.setFaults({ errorRate: p.errorRate });
  const before = await env.sim.calls();
  const stormStart = Date.now();
  await createAll(
    env.kube,
    Array.from({ length: p.creates }, (_, i) =>
      pullZoneManifest(
        p.namespace,
        objectName(prefix, i, 4),
        p.secretRef ? { awsSigningSecretAccessKeySecretRef: p.secretRef } : {},
      ),
    ),
  );
  await sleep(Math.max(0, p.stormMs - (Date.now() - stormStart)));
  await env.sim.setFaults({});
  const stormMs = Date.now() - stormStart;
  const during = diffCounters(before, await env.sim.calls());
  const { ready } = await waitAllReady(
    env,
    p.namespace,
    'PullZoneConfig',
    p.creates,
    p.readyTimeoutMs,
  );
  const names = await platformNames(env, 'PullZoneConfig', prefix);
  const duplicates = [...names.values()].reduce((s, c) => s + (c - 1), 0);
  // Backoff (1 s base, doubling) allows at most log2(storm/1 s)+2 passes per object, each with
  // up to 4 read attempts and one write; the client's token bucket caps everything.
  const passes = Math.floor(Math.log2(Math.max(1, stormMs / 1000))) + 2;
  const backoffBound = p.creates * passes * 5;
  const rateBound = Math.ceil((p.clientRatePerSecond * stormMs) / 1000) + p.clientBurst;
  const bound = Math.min(backoffBound, rateBound);
  return {
    scenario: '1. 5xx storm during creates',
    params: { ...p },
    figures: {
      stormMs,
      callsDuringStorm: during.total,
      callsDuringStormByStatus: during.byStatus,
      callsPerObjectDuringStorm: during.total / p.creates,
      backoffBound,
      rateBound,
      ready,
      zonesOnPlatform: names.size,
      duplicates,
    },
    checks: [
      check('all Ready after the storm', ready === p.creates, `${ready}/${p.creates} Ready`),
      check(
        'no duplicate zones',
        duplicates === 0 && names.size === p.creates,
        `${names.size} zones, ${duplicates} duplicates`,
      ),
      check(
        'storm calls bounded by backoff and rate limit',
        during.total <= bound,
        `${during.total} calls in ${stormMs} ms, bound ${bound}`,
      ),
    ],
  };
}
