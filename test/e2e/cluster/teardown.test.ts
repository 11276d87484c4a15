/** A private control plane stops cleanly: no etcd or kube-apiserver left behind, temp dir gone. */
import test from 'ava';
import { access } from 'node:fs/promises';
import { startControlPlane } from '../../cluster/control-plane.js';
import { isProcessAlive } from '../../cluster/process.js';

test('stop() kills exactly the processes it started and removes its temp dir', async (t) => {
  const cp = await startControlPlane();
  const pids = cp.pids();
  t.is(pids.length, 2, 'etcd and kube-apiserver');
  t.true(pids.every(isProcessAlive));
  await cp.stop();
  t.deepEqual(pids.filter(isProcessAlive), [], 'no process survives stop()');
  await t.throwsAsync(access(cp.dir), { code: 'ENOENT' });
  await cp.stop(); // idempotent
});

test('stopApiserver/startApiserver restarts the apiserver on the same address with the data kept', async (t) => {
  const cp = await startControlPlane();
  t.teardown(() => cp.stop());
  const before = cp.pids();
  await cp.stopApiserver();
  t.false(isProcessAlive(before[1]!));
  await cp.startApiserver();
  const after = cp.pids();
  t.is(after[0], before[0], 'etcd kept running');
  t.not(after[1], before[1], 'a new apiserver process');
  t.true(isProcessAlive(after[1]!));
});
