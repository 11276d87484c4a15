/**
 * Issue 29 item 4: the adaptive rate must not mistake demand for the platform's limit. With
 * the account limiter in virtual time against a platform that accepts 50 requests/s:
 *
 * - one 429 while the account sent 2 requests/s (its demand, not the platform's limit), then a
 *   backlog: the old code learned "2/s" as the limit and crawled near it for 109 s;
 * - 10 s of 429s without Retry-After (an outage-like refusal of everything), then the platform
 *   accepts 50/s again: the old code sat at the 1/s floor for 104 s.
 *
 * The target: back to 20 requests/s within 10 s of the backlog or of the end of the refusals.
 */
import test from 'ava';
import { DEFAULT_RATE_LIMIT } from '../../../src/cdn/options.js';
import { AccountLimiter } from '../../../src/cdn/rate-limit.js';
import { FaultInjector } from '../../../src/simulator/faults.js';
import { VirtualTime } from './virtual-time.js';

const PLATFORM_LIMIT = 50;
const LATENCY_MS = 50;

interface Phase {
  /** From this second on (until the next phase). */
  fromS: number;
  /** Busy callers (0: the one slow caller below). */
  callers: number;
  /** Every request in this phase is refused with 429 (no Retry-After). */
  refuseAll?: boolean;
}

interface World {
  vt: VirtualTime;
  limiter: AccountLimiter;
  /** Rate samples every 100 ms: [ms, requests/s]. */
  samples: Array<[number, number]>;
  phaseAt(ms: number): Phase;
}

function world(phases: Phase[]): World {
  const vt = new VirtualTime();
  const limiter = new AccountLimiter({ ...DEFAULT_RATE_LIMIT }, vt);
  const samples: Array<[number, number]> = [];
  const sample = (): void => {
    samples.push([vt.now(), limiter.rate.current]);
    vt.setTimer(sample, 100);
  };
  sample();
  const phaseAt = (ms: number): Phase =>
    [...phases].reverse().find((p) => ms >= p.fromS * 1000) ?? phases[0]!;
  return { vt, limiter, samples, phaseAt };
}

/** One request through the limiter to a platform that accepts 50/s (429 + Retry-After above). */
async function send(w: World, platform: FaultInjector, refuse: () => boolean): Promise<void> {
  const release = await w.limiter.acquire(undefined, 'low');
  const sentAt = w.vt.now();
  await w.vt.sleep(LATENCY_MS / 2);
  const refused = refuse();
  const retryAfter = refused ? undefined : platform.takeToken();
  await w.vt.sleep(LATENCY_MS / 2);
  if (refused) w.limiter.onAnswer(429, false, sentAt);
  else if (retryAfter !== undefined) {
    w.limiter.onAnswer(429, true, sentAt);
    w.limiter.pauseFor(retryAfter * 1000);
  } else w.limiter.onAnswer(200, false, sentAt);
  release();
}

/** Seconds from `fromS` until the rate first reaches `target`; Infinity if it never does. */
function secondsToReach(w: World, fromS: number, target: number): number {
  const hit = w.samples.find(([ms, r]) => ms >= fromS * 1000 && r >= target);
  return hit ? (hit[0] - fromS * 1000) / 1000 : Infinity;
}

async function run(
  w: World,
  platform: FaultInjector,
  endS: number,
  oneRefusalAtS?: number,
): Promise<void> {
  const endMs = endS * 1000;
  let refusalDue = oneRefusalAtS !== undefined;
  // The account's own demand: one request every 500 ms (2/s), all the time.
  const trickle = async (): Promise<void> => {
    while (w.vt.now() < endMs) {
      const now = w.vt.now();
      const once = refusalDue && now >= (oneRefusalAtS ?? Infinity) * 1000;
      if (once) refusalDue = false;
      await send(w, platform, () => once || w.phaseAt(now).refuseAll === true);
      await w.vt.sleep(500 - LATENCY_MS);
    }
  };
  // Busy callers of the backlog phases.
  const busy = async (index: number): Promise<void> => {
    while (w.vt.now() < endMs) {
      const now = w.vt.now();
      if (index >= w.phaseAt(now).callers) {
        await w.vt.sleep(100);
        continue;
      }
      await send(w, platform, () => w.phaseAt(w.vt.now()).refuseAll === true);
    }
  };
  const done = Promise.all([trickle(), ...Array.from({ length: 64 }, (_, i) => busy(i))]);
  await w.vt.run(endMs + 600_000);
  await done;
}

function platform(vt: VirtualTime): FaultInjector {
  return new FaultInjector(
    { rateLimit: { ratePerSecond: PLATFORM_LIMIT, burst: PLATFORM_LIMIT } },
    Math.random,
    () => vt.now(),
  );
}

test('one 429 at 2 requests/s is not the platform limit: a later backlog gets 20/s within 10 s', async (t) => {
  const w = world([
    { fromS: 0, callers: 0 },
    { fromS: 20, callers: 64 },
  ]);
  await run(w, platform(w.vt), 150, 10);
  const s = secondsToReach(w, 20, 20);
  t.log(`back to 20 requests/s ${s} s after the backlog arrived`);
  t.true(s <= 10, `${s} s`);
});

test('10 s of 429s without Retry-After: back to 20/s within 10 s once the platform accepts again', async (t) => {
  const w = world([
    { fromS: 0, callers: 64 },
    { fromS: 10, callers: 64, refuseAll: true },
    { fromS: 20, callers: 64 },
  ]);
  await run(w, platform(w.vt), 150);
  const s = secondsToReach(w, 20, 20);
  t.log(`back to 20 requests/s ${s} s after the refusals ended`);
  t.true(s <= 10, `${s} s`);
});
