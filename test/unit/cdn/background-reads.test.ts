/**
 * Background reads (CallOptions.background: the list sweeps of observe by pages): a 429 ends
 * the read at once and backs off only its caller; the account's writes are neither paused nor
 * slowed by it.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { CdnClient } from '../../../src/cdn/client.js';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { json, startLocal } from './local-server.js';

test('a 429 on a sweep page is not retried and does not pause or slow the account: a write right after goes out at once', async (t) => {
  const server = await startLocal((req, res) =>
    req.method === 'GET'
      ? json(res, 429, { Message: 'slow down' }, { 'Retry-After': '5' })
      : json(res, 200, { Id: 1 }),
  );
  t.teardown(() => server.close());
  const c = new CdnClient({ baseUrl: server.url, credentials: `key-${randomUUID()}` });
  const rate = await c.accountRate();
  const e = await t.throwsAsync(c.pullZonePage(1, { background: true, priority: 'low' }), {
    instanceOf: CdnApiError,
  });
  t.is(e.status, 429);
  t.is(server.seen.length, 1, 'sent once, never retried');
  await c.updatePullZone(1, {});
  const waited = server.seen[1]!.at - server.seen[0]!.at;
  t.true(waited < 2_000, `the write waited ${waited} ms: the sweep's Retry-After paused it`);
  t.is(await c.accountRate(), rate, 'the account rate was not lowered by the sweep’s 429');
});

test('a sweep page reads page and perPage 1,000 and says whether more follow', async (t) => {
  const server = await startLocal((req, res) =>
    json(res, 200, {
      Items: [{ Id: 1 }, { Id: 2 }],
      CurrentPage: 3,
      TotalItems: 2002,
      HasMoreItems: true,
    }),
  );
  t.teardown(() => server.close());
  const c = new CdnClient({ baseUrl: server.url, credentials: `key-${randomUUID()}` });
  const page = await c.pullZonePage(3, { background: true });
  t.deepEqual(page, { items: [{ Id: 1 }, { Id: 2 }], more: true });
  t.is(server.seen[0]!.url, '/pullzone?page=3&perPage=1000');
});
