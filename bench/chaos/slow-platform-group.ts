/**
 * The slow-platform group of the fault-injection suite (`--group slow-platform`, part of
 * `make chaos`): scenario 8 (bench/chaos/slow-platform.ts) on its own private environment,
 * then the secret leak scan over everything the group did.
 */
import type { ScenarioResult } from './common.js';
import { makeChaosSecrets, scanLeaks } from './secret-leaks.js';
import { runSlowPlatform, type SlowPlatformParams } from './slow-platform.js';
import { withEnv, type Profile } from './suite.js';

/** Sizes: the full run and the one `make test` runs (test/e2e/chaos/slow-platform.test.ts). */
const SIZES: Record<Profile, Pick<SlowPlatformParams, 'perKind'>> = {
  full: { perKind: 5 },
  short: { perKind: 2 },
};

/** Scenario 8 and the leak scan. */
export async function runSlowPlatformGroup(
  profile: Profile,
  log: (m: string) => void = () => undefined,
): Promise<ScenarioResult[]> {
  const secrets = makeChaosSecrets();
  return withEnv(secrets, async (env) => {
    await env.createNamespace('chaos-slow', secrets.values);
    // CHAOS_OPERATOR_ENTRY runs another operator build against the same faults (e.g. an
    // older tree, to see the scenario fail there).
    const entry = process.env.CHAOS_OPERATOR_ENTRY;
    await env.startOperator('chaos-slow', {
      args: ['--namespace', 'chaos-slow'],
      ...(entry ? { entry } : {}),
    });
    log('scenario 8: slow platform (creates answered after the client timeout)');
    const out = [
      await runSlowPlatform(env, {
        namespace: 'chaos-slow',
        ...SIZES[profile],
        // The operator's CDN client gives up after 30 s; the platform commits 2 s later.
        commitDelayMs: 32_000,
        listingDelayMs: 5_000,
        readyTimeoutMs: 600_000,
        goneTimeoutMs: 300_000,
      }),
    ];
    log('scenario 7: leak scan');
    out.push(await scanLeaks(env, secrets, 'slow-platform group'));
    return out;
  });
}
