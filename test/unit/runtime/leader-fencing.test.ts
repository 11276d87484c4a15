/**
 * Issue 14 item 10: a leader frozen past its renew deadline (SIGSTOP, GC pause) must see at
 * once, before any timer or renewal runs, that it may no longer dispatch or write.
 */
import test from 'ava';
import { pino } from 'pino';
import { fenceClient, FencedError } from '../../../src/runtime/fence.js';
import { FakeEnv, thing } from './fake-env.js';
import { fakeLease, startFakeKube, testElector } from './kube-fake-server.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Blocks the event loop like SIGSTOP does: nothing runs, then everything resumes. */
const freeze = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

test('a leader frozen past the renew deadline is deposed before anything else runs', async (t) => {
  const lease = fakeLease();
  const kube = await startFakeKube({ watch: (_q, res) => res.end(), other: lease.reply });
  t.teardown(() => kube.close());
  let stopped = 0;
  let started = 0;
  const elector = testElector(kube.client, {
    onStartedLeading: () => started++,
    onStoppedLeading: () => stopped++,
  });
  elector.start();
  for (let i = 0; i < 50 && !elector.isLeader(); i++) await sleep(50);
  t.true(elector.isLeader());
  t.is(started, 1);
  freeze(1300);
  // First thing after the freeze: no timer, no renewal has run yet.
  t.false(elector.isLeader(), 'deposed on the monotonic clock');
  t.is(stopped, 1);
  await sleep(500);
  t.false(elector.isLeader(), 'never leads again in this process');
  t.is(started, 1);
  t.is(stopped, 1);
  await elector.stop();
});

test('a fenced client refuses platform writes but still reads', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  let leader = true;
  const client = fenceClient(env.client(), () => leader);
  const obj = env.get('a');
  const ctx = {
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
    createPending: false,
  };
  await client.observe(obj, ctx);
  leader = false;
  await t.throwsAsync(() => client.create(obj, ctx), { instanceOf: FencedError });
  await t.throwsAsync(async () => client.delete(obj, { ...ctx, externalId: 'x' }), {
    instanceOf: FencedError,
  });
  t.deepEqual(env.calls, ['observe']);
});
