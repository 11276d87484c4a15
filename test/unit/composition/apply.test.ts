/** When the composition writes a generated object (src/composition/apply.ts `isApplied`). */
import test from 'ava';
import { holds, isApplied } from '../../../src/composition/apply.js';
import type { DesiredObject } from '../../../src/controllers/cdnpolicy/compose.js';

const want: DesiredObject = {
  apiVersion: 'pullzones.cdn.operator.io/v1beta1',
  kind: 'PullZoneConfig',
  metadata: { name: 'a', namespace: 'ns', labels: { l: 'v' }, ownerReferences: [] },
  spec: {
    settings: { originUrl: 'http://192.0.2.1' },
    hostnames: [{ hostname: 'www.example.com' }],
  },
};

const CASES: Array<{ title: string; live: Record<string, unknown> | undefined; applied: boolean }> =
  [
    { title: 'absent: applied', live: undefined, applied: false },
    {
      title: 'equal, with defaults and fields others set: not written again',
      live: {
        metadata: { labels: { l: 'v', other: 'x' } },
        spec: {
          settings: { originUrl: 'http://192.0.2.1', cacheErrorResponses: false },
          hostnames: [{ hostname: 'www.example.com', forceSSL: false }],
          hostnamePolicy: 'Additive',
        },
      },
      applied: true,
    },
    {
      title: 'a hand edit of the origin: written again (undone)',
      live: {
        metadata: { labels: { l: 'v' } },
        spec: {
          settings: { originUrl: 'http://edited' },
          hostnames: [{ hostname: 'www.example.com' }],
        },
      },
      applied: false,
    },
    {
      title: 'a hostname added by hand: written again (the list is ours)',
      live: {
        metadata: { labels: { l: 'v' } },
        spec: {
          settings: { originUrl: 'http://192.0.2.1' },
          hostnames: [{ hostname: 'www.example.com' }, { hostname: 'x.example.com' }],
        },
      },
      applied: false,
    },
    {
      title: 'a label removed by hand: written again',
      live: { metadata: {}, spec: want.spec },
      applied: false,
    },
  ];

for (const c of CASES) {
  test(c.title, (t) => {
    t.is(isApplied(c.live, want), c.applied);
  });
}

test('holds compares scalars exactly and objects by the wanted members', (t) => {
  t.true(holds({ a: 1, b: 2 }, { a: 1 }));
  t.false(holds({ a: '1' }, { a: 1 }));
  t.false(holds(undefined, { a: 1 }));
  t.false(holds([1], [1, 2]));
});
