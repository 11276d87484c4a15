/**
 * Issue 29 item 3: the leader fence runs on a monotonic clock. A wall clock stepped back during
 * a partition kept a deposed leader `isLeader: true` for as long as the step (3 s past a 1 s
 * renew deadline); a wall clock stepped forward deposed a healthy one.
 */
import test from 'ava';
import type { LeaderElector } from '../../../src/runtime/leader-election.js';
import { fakeLease, startFakeKube, testElector } from './kube-fake-server.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const wallNow = Date.now.bind(Date);

interface Clocks {
  /** The monotonic clock the elector is given (ms), moved by the test. */
  mono: number;
  /** Offset applied to Date.now (a wall clock step). */
  wallStep: number;
}

async function leading(t: import('ava').ExecutionContext, clocks: Clocks): Promise<LeaderElector> {
  const lease = fakeLease();
  const kube = await startFakeKube({ watch: (_q, res) => res.end(), other: lease.reply });
  const elector = testElector(kube.client, { monotonicNow: () => clocks.mono });
  t.teardown(async () => {
    Date.now = wallNow;
    lease.hang = false;
    await elector.stop();
    await kube.close();
  });
  Date.now = (): number => wallNow() + clocks.wallStep;
  elector.start();
  for (let i = 0; i < 100 && !elector.isLeader(); i++) await sleep(20);
  t.true(elector.isLeader(), 'acquired the lease');
  // A partition: renewals get no answer from now on.
  lease.hang = true;
  await sleep(250);
  return elector;
}

test.serial(
  'wall clock stepped back 3 s during a partition: deposed once the monotonic renew deadline passed',
  async (t) => {
    const clocks: Clocks = { mono: 10_000, wallStep: 0 };
    const elector = await leading(t, clocks);
    clocks.wallStep = -3000;
    clocks.mono += 1100; // 1.1 s since the last renewal, 0.1 s past the renew deadline
    t.false(elector.isLeader(), 'deposed 0.1 s after the deadline, whatever the wall clock says');
  },
);

test.serial(
  'wall clock stepped forward 5 s: a leader within its renew deadline keeps leading',
  async (t) => {
    const clocks: Clocks = { mono: 10_000, wallStep: 0 };
    const elector = await leading(t, clocks);
    clocks.wallStep = 5000;
    clocks.mono += 500; // 0.5 s since the last renewal
    t.true(elector.isLeader(), 'still within the 1 s renew deadline');
  },
);
