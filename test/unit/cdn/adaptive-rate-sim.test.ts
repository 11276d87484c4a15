/**
 * The adaptive per-account rate over real HTTP against cdn-sim: its 429 + Retry-After answers
 * reach the limiter and lower the rate. Convergence near a limit and the climb to a ceiling
 * are counted in virtual time (adaptive-rate-platform.test.ts), independent of machine load.
 */
import test from 'ava';
import { accountIdFor } from '../../../src/cdn/credentials.js';
import { accountRates } from '../../../src/cdn/rate-limit.js';
import { startSimClient, type SimClient } from './sim-harness.js';

interface CallLog {
  log: Array<{ t: number; status: number; route: string }>;
}

/** Keeps `callers` concurrent callers busy with reads until `ms` have passed. */
async function load(h: SimClient, callers: number, ms: number): Promise<number> {
  const started = Date.now();
  const loop = async (): Promise<void> => {
    while (Date.now() - started < ms) await h.client.listPullZones().catch(() => undefined);
  };
  await Promise.all(Array.from({ length: callers }, loop));
  return started;
}

/** Answers by status within [fromMs, toMs) after `started`. */
async function answers(
  h: SimClient,
  started: number,
  fromMs: number,
  toMs: number,
): Promise<{ ok: number; refused: number }> {
  const { log } = (await h.admin('GET', '/_sim/calls')) as CallLog;
  const within = log.filter(
    (l) => l.route === 'GET /pullzone' && l.t >= started + fromMs && l.t < started + toMs,
  );
  return {
    ok: within.filter((l) => l.status === 200).length,
    refused: within.filter((l) => l.status === 429).length,
  };
}

function rateOf(h: SimClient): number | undefined {
  const id = accountIdFor(h.apiKey);
  return accountRates().find((r) => r.account === id)?.requestsPerSecond;
}

test('over HTTP: 429 answers with Retry-After from cdn-sim lower the account rate', async (t) => {
  // A limit far below what even a loaded machine sends, so refusals are certain.
  const h = await startSimClient(t, { retry: { maxAttempts: 1 } });
  await h.admin('PUT', '/_sim/faults', { rateLimit: { ratePerSecond: 2, burst: 2 } });
  const started = await load(h, 8, 4_000);
  const all = await answers(h, started, 0, 10_000);
  const rate = rateOf(h) ?? Number.NaN;
  t.log(`answers ${all.ok} ok, ${all.refused} refused; rate now ${rate.toFixed(2)}/s`);
  t.true(all.refused > 0, 'the platform refused some requests');
  t.true(rate <= 5, `rate ${rate}/s after 429s at a 2/s limit (started at 20/s)`);
  // Requests kept going out after the first 429s, but slowly: far fewer than the 20/s start.
  const lastSecond = await answers(h, started, 3_000, 4_000);
  t.true(
    lastSecond.ok + lastSecond.refused <= 8,
    `${JSON.stringify(lastSecond)} in the 4th second`,
  );
});
