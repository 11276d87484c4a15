/**
 * `make demo` progress: which example objects are Ready and why the others are not, from
 * their conditions (hack/demo/progress.ts, pure).
 */
import test from 'ava';
import {
  formatProgress,
  summarizeReadiness,
  whyNotReady,
  type CdnObject,
} from '../../../hack/demo/progress.js';

function obj(
  kind: string,
  name: string,
  generation: number,
  status?: CdnObject['status'],
): CdnObject {
  return { kind, metadata: { name, generation }, ...(status ? { status } : {}) };
}

const ready = { type: 'Ready', status: 'True', reason: 'Available', observedGeneration: 2 };

const cases: { name: string; o: CdnObject | undefined; ready: boolean; why?: RegExp }[] = [
  { name: 'absent from the cluster', o: undefined, ready: false, why: /^not created yet$/ },
  {
    name: 'no status yet',
    o: obj('PullZoneConfig', 'z', 1),
    ready: false,
    why: /waiting for the operator/,
  },
  {
    name: 'Ready=True for the current generation',
    o: obj('PullZoneConfig', 'z', 2, { observedGeneration: 2, conditions: [ready] }),
    ready: true,
  },
  {
    name: 'Ready=True but recorded for an older generation',
    o: obj('PullZoneConfig', 'z', 3, { observedGeneration: 2, conditions: [ready] }),
    ready: false,
    why: /older generation/,
  },
  {
    name: 'waiting for a reference: the reason and message are shown',
    o: obj('ContainerApp', 'app', 1, {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'ReferenceNotReady',
          message: 'PullZoneConfig shop-cdn has no id',
        },
        { type: 'Synced', status: 'Unknown', reason: 'Waiting' },
      ],
    }),
    ready: false,
    why: /^Ready=False ReferenceNotReady: PullZoneConfig shop-cdn has no id; Synced=Unknown Waiting$/,
  },
  {
    name: 'a failing sync is shown next to Ready',
    o: obj('ShieldPolicy', 's', 1, {
      conditions: [
        { type: 'Ready', status: 'Unknown', reason: 'Unavailable' },
        {
          type: 'Synced',
          status: 'False',
          reason: 'Unauthorized',
          message: 'the API key was rejected',
        },
      ],
    }),
    ready: false,
    why: /Synced=False Unauthorized: the API key was rejected/,
  },
];

for (const c of cases) {
  test(`readiness: ${c.name}`, (t) => {
    const expected = ['X/y'];
    const objects = c.o ? [{ ...c.o, kind: 'X', metadata: { ...c.o.metadata, name: 'y' } }] : [];
    const r = summarizeReadiness(expected, objects);
    t.deepEqual(r.ready, c.ready ? ['X/y'] : []);
    if (!c.ready) {
      t.is(r.pending.length, 1);
      t.regex(r.pending[0]!.why, c.why!);
      t.is(whyNotReady(c.o), r.pending[0]!.why);
    }
  });
}

test('objects outside the expected list are ignored; missing expected ones are pending', (t) => {
  const r = summarizeReadiness(
    ['PullZoneConfig/a', 'ShieldPolicy/b'],
    [obj('PullZoneConfig', 'a', 2, { conditions: [ready] }), obj('PullZoneConfig', 'other', 1)],
  );
  t.deepEqual(r.ready, ['PullZoneConfig/a']);
  t.deepEqual(r.pending, [{ ref: 'ShieldPolicy/b', why: 'not created yet' }]);
});

test('the progress block counts Ready objects and lists each pending one with its reason', (t) => {
  const lines = formatProgress(7, {
    ready: ['PullZoneConfig/a'],
    pending: [{ ref: 'ShieldPolicy/b', why: 'Ready=False Creating' }],
  });
  t.deepEqual(lines, [
    '  [  7s] 1/2 Ready',
    '         waiting for ShieldPolicy/b: Ready=False Creating',
  ]);
});
