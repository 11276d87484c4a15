/**
 * Export of custom response pages (export-pages.ts): a ConfigMap and a `spec.customPages` entry
 * per page the zone has, names unique across the export, pages the policy would refuse left out
 * with a note, and a page type the platform refuses noted without failing the export.
 */
import test from 'ava';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import { CUSTOM_PAGE_TYPES, MAX_CUSTOM_PAGE_BYTES } from '../../../../src/cdn/shield-features.js';
import { NameAllocator } from '../../../../src/controllers/shared/export-names.js';
import type { LivePages } from '../../../../src/controllers/shieldpolicy/custom-pages.js';
import {
  exportPages,
  PAGE_KEY,
  readExportPages,
} from '../../../../src/controllers/shieldpolicy/export-pages.js';

const policy = (
  name: string,
  shieldZoneId = 7,
): { name: string; namespace: string; shieldZoneId: number } => ({
  name,
  namespace: 'shop',
  shieldZoneId,
});

test('one ConfigMap per page the zone has, in page type order, named after the policy', (t) => {
  const live: LivePages = new Map([
    ['block', '<h1>blocked</h1>'],
    ['challenge', undefined],
    ['ratelimit', '<h1>slow down</h1>\n'],
  ]);
  const out = exportPages(live, policy('shop'), new NameAllocator());
  t.deepEqual(out.customPages, [
    { pageType: 'block', configMapRef: { name: 'shop-block-page', key: PAGE_KEY } },
    { pageType: 'ratelimit', configMapRef: { name: 'shop-ratelimit-page', key: PAGE_KEY } },
  ]);
  t.deepEqual(
    out.configMaps.map((c) => c.manifest),
    [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'shop-block-page', namespace: 'shop' },
        data: { 'page.html': '<h1>blocked</h1>' },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'shop-ratelimit-page', namespace: 'shop' },
        data: { 'page.html': '<h1>slow down</h1>\n' },
      },
    ],
  );
  t.deepEqual(
    out.configMaps.map((c) => `${c.kind}/${c.name}`),
    ['ConfigMap/shop-block-page', 'ConfigMap/shop-ratelimit-page'],
  );
  t.deepEqual(out.notes, []);
});

test('a zone without pages exports no ConfigMap and no customPages', (t) => {
  const live: LivePages = new Map(CUSTOM_PAGE_TYPES.map((type) => [type, undefined]));
  t.deepEqual(exportPages(live, policy('shop'), new NameAllocator()), {
    customPages: [],
    configMaps: [],
    notes: [],
  });
});

test('names stay unique across the export: a taken name, and long policy names cut to 63', (t) => {
  const names = new NameAllocator();
  // Another exported ConfigMap already has the plain name.
  names.allocate('shop-block-page', 1, 'page');
  const first = exportPages(new Map([['block', 'a']]), policy('shop', 12), names);
  t.is(first.customPages[0]?.configMapRef.name, 'shop-block-page-12');
  // Two page types of a 63-character policy name lose their suffix to the cut: still distinct.
  const long = 'p'.repeat(63);
  const second = exportPages(
    new Map([
      ['block', 'a'],
      ['challenge', 'b'],
    ]),
    policy(long, 13),
    names,
  );
  const all = [first, second].flatMap((o) => o.configMaps.map((c) => c.name));
  t.is(new Set(all).size, all.length, all.join(', '));
  for (const name of all) t.regex(name, /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
  t.deepEqual(
    second.customPages.map((p) => p.configMapRef.name),
    second.configMaps.map((c) => c.name),
    'each entry names its own ConfigMap',
  );
  // The same account exports the same names again.
  const again = new NameAllocator();
  again.allocate('shop-block-page', 1, 'page');
  exportPages(new Map([['block', 'a']]), policy('shop', 12), again);
  const repeat = exportPages(
    new Map([
      ['block', 'a'],
      ['challenge', 'b'],
    ]),
    policy(long, 13),
    again,
  );
  t.deepEqual(
    repeat.configMaps.map((c) => c.name),
    second.configMaps.map((c) => c.name),
  );
});

test('a page the policy would refuse is left out with a note (size in bytes, not characters)', (t) => {
  const atLimit = 'é'.repeat(MAX_CUSTOM_PAGE_BYTES / 2); // 2 bytes each: exactly the bound
  const live: LivePages = new Map([
    ['block', atLimit],
    ['challenge', `${atLimit}x`],
    ['ratelimit', ' \n\t'],
  ]);
  const out = exportPages(live, policy('shop'), new NameAllocator());
  t.deepEqual(
    out.customPages.map((p) => p.pageType),
    ['block'],
  );
  t.is((out.configMaps[0]?.manifest.data as Record<string, string>)[PAGE_KEY], atLimit);
  t.deepEqual(out.notes, [
    `ShieldPolicy shop: custom challenge page left out (unmanaged): it is ${MAX_CUSTOM_PAGE_BYTES + 1} bytes, more than the ${MAX_CUSTOM_PAGE_BYTES} a policy uploads and a ConfigMap holds`,
    'ShieldPolicy shop: custom ratelimit page left out (unmanaged): it is blank, and a policy refuses a blank page',
  ]);
  for (const note of out.notes) t.false(note.includes('éé'), 'a note never holds the page');
});

function failure(kind: 'invalid' | 'server'): CdnApiError {
  const detail = kind === 'invalid' ? 'pageType must be one of block, challenge' : 'boom';
  return new CdnApiError({
    operation: 'getCustomPage',
    kind,
    status: kind === 'invalid' ? 400 : 500,
    message: `cannot getCustomPage: ${detail}`,
    detail,
  });
}

test('reading: one GET per page type; a type the platform refuses is a note, a 5xx fails', async (t) => {
  const asked: string[] = [];
  const api = {
    getCustomPage: (zone: number, type: string): Promise<string | undefined> => {
      asked.push(`${zone}/${type}`);
      if (type === 'ratelimit') return Promise.reject(failure('invalid'));
      return Promise.resolve(type === 'block' ? '<p>b</p>' : undefined);
    },
  };
  const notes: string[] = [];
  const live = await readExportPages(api, policy('shop', 9), notes);
  t.deepEqual(asked, ['9/block', '9/challenge', '9/ratelimit']);
  t.deepEqual(
    [...live],
    [
      ['block', '<p>b</p>'],
      ['challenge', undefined],
    ],
  );
  t.deepEqual(notes, [
    'ShieldPolicy shop: custom ratelimit page not exported: the platform refused the page type (pageType must be one of block, challenge)',
  ]);
  const broken = {
    getCustomPage: (): Promise<string | undefined> => Promise.reject(failure('server')),
  };
  await t.throwsAsync(readExportPages(broken, policy('shop'), []), { message: /boom/ });
});
