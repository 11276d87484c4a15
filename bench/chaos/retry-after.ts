/**
 * Scenario 2: the sim answers 429 with a fixed Retry-After once its token bucket is empty.
 * From the sim's own call log: after each 429, no request arrives inside the Retry-After
 * window (a small grace covers requests already on the wire when the 429 was sent).
 */
import type { CallLogEntry } from '../../src/simulator/calls.js';
import type { BenchEnv } from '../lib/env.js';
import { createAll, objectName, pullZoneManifest } from '../lib/objects.js';
import { resetCalls } from '../lib/sim.js';
import { check, waitAllReady, type ScenarioResult } from './common.js';

/** Parameters. */
export interface RetryAfterParams {
  namespace: string;
  creates: number;
  ratePerSecond: number;
  burst: number;
  retryAfterSeconds: number;
  /** Requests arriving this soon after a 429 were sent before it was received. */
  graceMs: number;
  readyTimeoutMs: number;
}

/** A request that arrived inside the Retry-After window opened by an earlier 429. */
export interface Violation {
  request: CallLogEntry;
  /** The 429 that opened the window. */
  opener: CallLogEntry;
  /** Milliseconds from the opener to the request. */
  afterMs: number;
}

/** Requests that arrived inside a Retry-After window opened by an earlier 429. */
export function windowViolations(
  log: CallLogEntry[],
  retryAfterMs: number,
  graceMs: number,
): Violation[] {
  const sorted = [...log].sort((a, b) => a.t - b.t);
  const out: Violation[] = [];
  let opener: CallLogEntry | undefined;
  for (const e of sorted) {
    if (opener && e.t > opener.t + graceMs && e.t < opener.t + retryAfterMs - graceMs) {
      out.push({ request: e, opener, afterMs: e.t - opener.t });
    }
    if (e.status === 429 && (!opener || e.t >= opener.t + retryAfterMs - graceMs)) opener = e;
  }
  return out;
}

/** Runs the scenario (operator already running). */
export async function runRetryAfter(env: BenchEnv, p: RetryAfterParams): Promise<ScenarioResult> {
  await resetCalls(env.sim);
  await env.sim.setFaults({
    rateLimit: {
      ratePerSecond: p.ratePerSecond,
      burst: p.burst,
      retryAfterSeconds: p.retryAfterSeconds,
    },
  });
  await createAll(
    env.kube,
    Array.from({ length: p.creates }, (_, i) =>
      pullZoneManifest(p.namespace, objectName(`${p.namespace}-ra`, i, 4)),
    ),
  );
  const { ready } = await waitAllReady(
    env,
    p.namespace,
    'PullZoneConfig',
    p.creates,
    p.readyTimeoutMs,
  );
  const { log } = await env.sim.calls();
  await env.sim.setFaults({});
  const throttled = log.filter((e) => e.status === 429).length;
  const violations = windowViolations(log, p.retryAfterSeconds * 1000, p.graceMs);
  return {
    scenario: '2. 429 with Retry-After',
    params: { ...p },
    figures: {
      calls: log.length,
      throttled,
      violations: violations.length,
      firstViolations: violations.slice(0, 5),
      ready,
    },
    checks: [
      check('the sim throttled at least once', throttled > 0, `${throttled} answers 429`),
      check(
        'no request inside a Retry-After window',
        violations.length === 0,
        `${violations.length} requests inside a window`,
      ),
      check('all Ready', ready === p.creates, `${ready}/${p.creates}`),
    ],
  };
}
