import test from 'ava';
import { createMergePatch, jsonEqual } from '../../../src/runtime/merge-patch.js';
import { StatusWriter } from '../../../src/runtime/status-writer.js';
import type { ManagedObject, ManagedStatus } from '../../../src/runtime/types.js';
import { applyMergePatch } from './fake-env.js';

const patches: Array<
  [string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]
> = [
  ['equal → empty', { a: 1, b: [1] }, { a: 1, b: [1] }, {}],
  ['changed scalar', { a: 1 }, { a: 2 }, { a: 2 }],
  ['removed member → null', { a: 1, b: 2 }, { a: 1 }, { b: null }],
  ['undefined member counts as removed', { a: 1, b: 2 }, { a: 1, b: undefined }, { b: null }],
  [
    'nested objects diffed recursively',
    { o: { x: 1, y: 2 } },
    { o: { x: 1, y: 3 } },
    { o: { y: 3 } },
  ],
  ['arrays replaced whole', { l: [1, 2] }, { l: [1] }, { l: [1] }],
];
for (const [why, from, to, expected] of patches) {
  test(`createMergePatch: ${why}`, (t) => {
    const p = createMergePatch(from, to);
    t.deepEqual(p, expected);
    t.true(jsonEqual(applyMergePatch(from, p), to), 'applying the patch yields the target');
  });
}

function obj(status: ManagedStatus): ManagedObject {
  return {
    apiVersion: 'v',
    kind: 'K',
    metadata: { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '5' },
    status,
  };
}

test('no write when the desired status equals the current one', async (t) => {
  let writes = 0;
  const w = new StatusWriter((o) => {
    writes++;
    return Promise.resolve(o);
  });
  t.is(await w.write(obj({ a: 1, conditions: [] }), { conditions: [], a: 1 }), undefined);
  t.is(writes, 0);
});

test('a write is a merge patch with the resourceVersion precondition', async (t) => {
  let sent: Record<string, unknown> | undefined;
  const w = new StatusWriter((o, p) => {
    sent = p;
    return Promise.resolve(o);
  });
  await w.write(obj({ a: 1, gone: true }), { a: 2 });
  t.deepEqual(sent, { metadata: { resourceVersion: '5' }, status: { a: 2, gone: null } });
});

test('a field the schema prunes does not cause a write on every pass', async (t) => {
  let writes = 0;
  // The server drops `unknownField` (structural schema pruning).
  const w = new StatusWriter((o, p) => {
    writes++;
    const status = applyMergePatch(o.status, p.status) as ManagedStatus;
    delete status.unknownField;
    return Promise.resolve({ ...o, status });
  });
  const desired = { a: 1, unknownField: 'x' };
  const stored = await w.write(obj({}), desired);
  t.is(writes, 1);
  t.is(
    await w.write(stored!, desired),
    undefined,
    'same desired, cache shows what the server stored',
  );
  t.is(writes, 1);
  await w.write(stored!, { a: 2, unknownField: 'x' });
  t.is(writes, 2, 'a real change is still written');
});

test('the memo holds no entry after a write the server stored unchanged', async (t) => {
  let writes = 0;
  const w = new StatusWriter((o, p) => {
    writes++;
    return Promise.resolve({ ...o, status: applyMergePatch(o.status, p.status) as ManagedStatus });
  });
  const stored = await w.write(obj({}), { a: 1 });
  t.is(writes, 1);
  t.is(w.size, 0, 'the cache will show the desired status: equality already answers');
  t.is(await w.write(stored!, { a: 1 }), undefined);
  t.is(writes, 1);
});

test('a pruned write keeps its entry; a later unchanged write drops it', async (t) => {
  let prune = true;
  const w = new StatusWriter((o, p) => {
    const status = applyMergePatch(o.status, p.status) as ManagedStatus;
    if (prune) delete status.unknownField;
    return Promise.resolve({ ...o, status });
  });
  const stored = await w.write(obj({}), { a: 1, unknownField: 'x' });
  t.is(w.size, 1);
  t.is(await w.write(stored!, { a: 1, unknownField: 'x' }), undefined, 'no repeated write');
  prune = false;
  await w.write(stored!, { a: 2 });
  t.is(w.size, 0, 'the entry of the pruned write is gone');
});
