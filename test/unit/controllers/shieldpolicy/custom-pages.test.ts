/**
 * Custom response pages: comparison by content hash (never the HTML in plans or status), the
 * reset of deletion, the ConfigMap references and the reading of the pages at connect time.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import {
  customPageReferences,
  resolveCustomPages,
} from '../../../../src/controllers/shieldpolicy/custom-page-refs.js';
import {
  diffPages,
  diffPagesForReset,
  hashPage,
  pagesStatus,
  type LivePages,
  type ResolvedPage,
} from '../../../../src/controllers/shieldpolicy/custom-pages.js';
import type { ShieldPolicy } from '../../../../src/controllers/shieldpolicy/types.js';
import { TerminalError, WaitingError } from '../../../../src/runtime/errors.js';
import type { ConnectContext } from '../../../../src/runtime/types.js';

const page = (pageType: string, html: string): ResolvedPage => ({
  pageType,
  html,
  sha256: hashPage(html),
});

const CASES: Array<{ why: string; desired: ResolvedPage[]; live: LivePages; fields: string[] }> = [
  {
    why: 'same content: no difference',
    desired: [page('block', '<p>x</p>')],
    live: new Map([['block', '<p>x</p>']]),
    fields: [],
  },
  {
    why: 'no page yet',
    desired: [page('block', '<p>x</p>')],
    live: new Map([['block', undefined]]),
    fields: ['customPages.block'],
  },
  {
    why: 'other content',
    desired: [page('block', '<p>x</p>')],
    live: new Map([['block', '<p>y</p>']]),
    fields: ['customPages.block'],
  },
  {
    why: 'a trailing newline is content',
    desired: [page('block', '<p>x</p>\n')],
    live: new Map([['block', '<p>x</p>']]),
    fields: ['customPages.block'],
  },
  {
    why: 'each type on its own',
    desired: [page('block', 'a'), page('challenge', 'b')],
    live: new Map([
      ['block', 'a'],
      ['challenge', 'c'],
    ]),
    fields: ['customPages.challenge'],
  },
];

for (const c of CASES) {
  test(`diffPages: ${c.why}`, (t) => {
    const diff = diffPages(c.desired, c.live);
    t.deepEqual(
      diff.map((d) => d.field),
      c.fields,
    );
    for (const d of diff) {
      t.regex(d.desired, /^sha256:[0-9a-f]{16}$/, 'a hash, never the HTML');
      t.regex(d.live, /^(sha256:[0-9a-f]{16}|<absent>)$/);
    }
  });
}

test('status and reset: hashes of the managed pages the zone has', (t) => {
  const live: LivePages = new Map([
    ['block', '<p>x</p>'],
    ['challenge', undefined],
  ]);
  t.deepEqual(pagesStatus(['block', 'challenge'], live), [
    { pageType: 'block', sha256: createHash('sha256').update('<p>x</p>').digest('hex') },
  ]);
  t.deepEqual(
    diffPagesForReset(['block', 'challenge'], live).map((d) => [d.field, d.desired]),
    [['customPages.block', '<absent>']],
  );
});

function policy(pages: unknown[], deleting = false): ShieldPolicy {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: {
      name: 'p',
      namespace: 'ns',
      ...(deleting ? { deletionTimestamp: '2030-01-01T00:00:00Z' } : {}),
    },
    spec: { pullZoneId: 1, customPages: pages as never },
  };
}

const maps = (
  data: Record<string, Record<string, string>>,
): Pick<ConnectContext, 'readConfigMap'> => ({
  readConfigMap: (_ns: string, name: string): Promise<Record<string, string> | undefined> =>
    Promise.resolve(data[name]),
});

test('references: one per ConfigMap, in the policy namespace', (t) => {
  const obj = policy([
    { pageType: 'block', configMapRef: { name: 'pages', key: 'a' } },
    { pageType: 'challenge', configMapRef: { name: 'pages', key: 'b' } },
  ]);
  t.deepEqual(customPageReferences(obj), [
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', name: 'pages' },
  ]);
});

const RESOLVE: Array<{
  why: string;
  data: Record<string, Record<string, string>>;
  error?: { type: typeof WaitingError | typeof TerminalError; message: RegExp };
}> = [
  { why: 'read', data: { pages: { a: '<p>a</p>' } } },
  {
    why: 'a missing ConfigMap waits, naming it',
    data: {},
    error: {
      type: WaitingError,
      message: /ConfigMap ns\/pages \(spec\.customPages\[0\], block\): not found/,
    },
  },
  {
    why: 'a missing key waits, naming it',
    data: { pages: { other: 'x' } },
    error: { type: WaitingError, message: /ConfigMap ns\/pages to have key "a"/ },
  },
  {
    why: 'an empty page is invalid',
    data: { pages: { a: '  ' } },
    error: { type: TerminalError, message: /spec\.customPages\[0\] \(block\).*is empty/ },
  },
  {
    why: 'a page over 1 MiB is invalid, with its size and never its content',
    data: { pages: { a: 'x'.repeat(1024 * 1024 + 1) } },
    error: { type: TerminalError, message: /is 1048577 bytes, more than 1048576$/ },
  },
];

for (const c of RESOLVE) {
  test(`resolveCustomPages: ${c.why}`, async (t) => {
    const obj = policy([{ pageType: 'block', configMapRef: { name: 'pages', key: 'a' } }]);
    if (!c.error) {
      t.deepEqual(await resolveCustomPages(obj, maps(c.data)), [page('block', '<p>a</p>')]);
      return;
    }
    const err = await t.throwsAsync(resolveCustomPages(obj, maps(c.data)));
    t.true(err instanceof c.error.type);
    t.regex(err.message, c.error.message);
    t.true(err.message.length < 300, 'the content is never in the message');
  });
}

test('resolveCustomPages: nothing is read while deleting (a gone ConfigMap never blocks it)', async (t) => {
  const obj = policy([{ pageType: 'block', configMapRef: { name: 'gone', key: 'a' } }], true);
  t.deepEqual(await resolveCustomPages(obj, maps({})), []);
});
