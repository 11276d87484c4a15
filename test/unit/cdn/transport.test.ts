/**
 * Transport behaviour against a scripted loopback server: headers, error kinds, retry policy,
 * Retry-After, timeouts, hooks, the shared per-account limiter and secret redaction.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { CdnClient, type CdnClientOptions } from '../../../src/cdn/client.js';
import { CdnApiError, type CdnErrorKind } from '../../../src/cdn/errors.js';
import type { RequestEvent } from '../../../src/cdn/options.js';
import { json, startLocal } from './local-server.js';

/** A fresh key per test so tests do not share a limiter. */
const newKey = (): string => `key-${randomUUID()}`;

function client(url: string, extra: Partial<CdnClientOptions> = {}): CdnClient {
  return new CdnClient({
    baseUrl: url,
    credentials: newKey(),
    retry: { baseDelayMs: 10, maxDelayMs: 50, budgetMs: 5000 },
    ...extra,
  });
}

test('sends AccessKey, User-Agent, Accept and JSON content type; parses JSON', async (t) => {
  const server = await startLocal((req, res) => json(res, 200, { Id: 7, Name: 'zone' }));
  t.teardown(() => server.close());
  const key = newKey();
  const c = new CdnClient({ baseUrl: `${server.url}/`, credentials: key });
  const zone = await c.updatePullZone(7, { OriginUrl: 'https://origin.example' });
  t.is(zone.Id, 7);
  const req = server.seen[0]!;
  t.is(req.method, 'POST');
  t.is(req.url, '/pullzone/7');
  t.is(req.headers.accesskey, key);
  t.regex(String(req.headers['user-agent']), /^cdn-operator\/\d+\.\d+\.\d+/);
  t.is(req.headers['content-type'], 'application/json');
  t.deepEqual(JSON.parse(req.body), { OriginUrl: 'https://origin.example' });
});

test('the credential provider is asked on every request (rotation without a new client)', async (t) => {
  const server = await startLocal((req, res) => json(res, 200, { Id: 1 }));
  t.teardown(() => server.close());
  const keys = [newKey(), newKey()];
  let i = 0;
  const c = new CdnClient({
    baseUrl: server.url,
    credentials: { getApiKey: () => keys[i++ % 2]! },
  });
  await c.getPullZone(1);
  await c.getPullZone(1);
  t.deepEqual(
    server.seen.map((r) => r.headers.accesskey),
    keys,
  );
});

const kinds: Array<[number, CdnErrorKind]> = [
  [400, 'invalid'],
  [422, 'invalid'],
  [401, 'unauthorized'],
  [403, 'unauthorized'],
  [404, 'notFound'],
  [409, 'conflict'],
  [429, 'rateLimited'],
  [500, 'server'],
];
for (const [status, kind] of kinds) {
  test(`HTTP ${status} becomes kind ${kind} with the API's message`, async (t) => {
    const server = await startLocal((req, res) =>
      json(res, status, { ErrorKey: 'k', Field: 'F', Message: 'why' }),
    );
    t.teardown(() => server.close());
    const c = client(server.url, { retry: { maxAttempts: 1 } });
    const e = await t.throwsAsync(c.getPullZone(1), { instanceOf: CdnApiError });
    t.like(e, { kind, status, errorKey: 'k', field: 'F', operation: 'getPullZone', detail: 'why' });
    t.is(e.message, 'cannot getPullZone: why');
  });
}

test('a connection refused becomes kind network', async (t) => {
  const server = await startLocal((req, res) => json(res, 200, {}));
  const url = server.url;
  await server.close();
  const c = client(url, { retry: { maxAttempts: 1 } });
  const e = await t.throwsAsync(c.getPullZone(1), { instanceOf: CdnApiError });
  t.is(e.kind, 'network');
  t.regex(e.message, /ECONNREFUSED/);
});

test('no answer within timeoutMs becomes kind timeout', async (t) => {
  const server = await startLocal((req, res) => setTimeout(() => json(res, 200, { Id: 1 }), 2000));
  t.teardown(() => server.close());
  const c = client(server.url, { timeoutMs: 100, retry: { maxAttempts: 1 } });
  const e = await t.throwsAsync(c.getPullZone(1), { instanceOf: CdnApiError });
  t.is(e.kind, 'timeout');
});

test('a caller abort stops the call and is not retried', async (t) => {
  const ac = new AbortController();
  const server = await startLocal(() => ac.abort()); // never answers; the caller gives up
  t.teardown(() => server.close());
  const c = client(server.url);
  const e = await t.throwsAsync(c.getPullZone(1, { signal: ac.signal }), {
    instanceOf: CdnApiError,
  });
  t.is(e.kind, 'timeout');
  t.regex(e.message, /aborted by the caller/);
  t.is(server.seen.length, 1);
});

test('GET is retried on 5xx and then succeeds; hooks see every attempt', async (t) => {
  const server = await startLocal((req, res, i) =>
    i < 2 ? json(res, 503, { Message: 'busy' }) : json(res, 200, { Id: 3 }),
  );
  t.teardown(() => server.close());
  const events: RequestEvent[] = [];
  const c = client(server.url, { hooks: { onRequest: (e) => events.push(e) } });
  const zone = await c.getPullZone(3);
  t.is(zone.Id, 3);
  t.is(server.seen.length, 3);
  t.deepEqual(
    events.map((e) => [e.operation, e.method, e.status, e.kind, e.attempt]),
    [
      ['getPullZone', 'GET', 503, 'server', 1],
      ['getPullZone', 'GET', 503, 'server', 2],
      ['getPullZone', 'GET', 200, undefined, 3],
    ],
  );
  t.true(events.every((e) => e.durationMs >= 0));
});

test('GET gives up after maxAttempts', async (t) => {
  const server = await startLocal((req, res) => json(res, 500, { Message: 'down' }));
  t.teardown(() => server.close());
  const c = client(server.url, { retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 } });
  const e = await t.throwsAsync(c.getPullZone(1), { instanceOf: CdnApiError });
  t.is(e.kind, 'server');
  t.is(server.seen.length, 3);
});

test('POST create is not retried on 5xx (a retried create can duplicate)', async (t) => {
  const server = await startLocal((req, res) => json(res, 500, { Message: 'down' }));
  t.teardown(() => server.close());
  const c = client(server.url);
  await t.throwsAsync(c.addPullZone({ Name: 'zone-a', OriginUrl: 'https://o.example' }), {
    instanceOf: CdnApiError,
  });
  t.is(server.seen.length, 1);
});

test('Retry-After is honoured before the retry (measured)', async (t) => {
  const server = await startLocal((req, res, i) =>
    i === 0
      ? json(res, 429, { Message: 'slow down' }, { 'Retry-After': '1' })
      : json(res, 200, { Id: 1 }),
  );
  t.teardown(() => server.close());
  const c = client(server.url);
  await c.getPullZone(1);
  const waited = server.seen[1]!.at - server.seen[0]!.at;
  t.true(waited >= 950, `second attempt came ${waited} ms after the first`);
});

test('Retry-After pauses every client of the same account, and a throttled write is resent after it', async (t) => {
  const server = await startLocal((req, res, i) =>
    i === 0
      ? json(res, 429, { Message: 'slow down' }, { 'Retry-After': '1' })
      : json(res, 200, { Id: 1 }),
  );
  t.teardown(() => server.close());
  const key = newKey();
  let refused!: () => void;
  const throttled = new Promise<void>((resolve) => (refused = resolve));
  const onRequest = (e: { status?: number }): void => {
    if (e.status === 429) refused();
  };
  const a = new CdnClient({ baseUrl: server.url, credentials: key, hooks: { onRequest } });
  const b = new CdnClient({ baseUrl: server.url, credentials: key });
  const write = a.updatePullZone(1, {});
  await throttled; // b starts only once a has seen the 429
  await b.getPullZone(1);
  await write;
  t.is(server.seen.length, 3);
  for (const later of server.seen.slice(1)) {
    const waited = later.at - server.seen[0]!.at;
    t.true(waited >= 950, `a request came ${waited} ms after the 429`);
  }
});

test('a create refused with 429 is sent again and makes one resource', async (t) => {
  const server = await startLocal((req, res, i) =>
    i === 0
      ? json(res, 429, { Message: 'slow down' }, { 'Retry-After': '0.2' })
      : json(res, 201, { Id: 7, Name: 'zone-a' }),
  );
  t.teardown(() => server.close());
  const zone = await client(server.url).addPullZone({
    Name: 'zone-a',
    OriginUrl: 'https://o.example',
  });
  t.is(zone.Id, 7);
  t.deepEqual(
    server.seen.map((r) => r.method),
    ['POST', 'POST'],
  );
});

test('a write throttled past its attempts reports rateLimited with retryAfterMs', async (t) => {
  const server = await startLocal((req, res) =>
    json(res, 429, { Message: 'slow down' }, { 'Retry-After': '0.1' }),
  );
  t.teardown(() => server.close());
  const c = client(server.url, { retry: { maxAttempts: 2 } });
  const e = await t.throwsAsync(c.updatePullZone(1, {}), { instanceOf: CdnApiError });
  t.is(e.kind, 'rateLimited');
  t.is(e.retryAfterMs, 100);
  t.is(server.seen.length, 2);
});

test('Retry-After longer than the budget fails fast with retryAfterMs', async (t) => {
  const server = await startLocal((req, res) => json(res, 429, {}, { 'Retry-After': '60' }));
  t.teardown(() => server.close());
  const c = client(server.url, { retry: { budgetMs: 1000 } });
  const e = await t.throwsAsync(c.listApiKeys(), { instanceOf: CdnApiError });
  t.is(e.kind, 'rateLimited');
  t.is(e.retryAfterMs, 60_000);
  t.is(server.seen.length, 1);
});

test('token bucket shared by clients of one account spaces requests at the configured rate', async (t) => {
  const server = await startLocal((req, res) => json(res, 200, { Id: 1 }));
  t.teardown(() => server.close());
  const key = newKey();
  const rateLimit = { requestsPerSecond: 10, burst: 2, maxConcurrent: 10 };
  const a = new CdnClient({ baseUrl: server.url, credentials: key, rateLimit });
  const b = new CdnClient({ baseUrl: server.url, credentials: key, rateLimit });
  const started = Date.now();
  await Promise.all([1, 2, 3, 4, 5, 6].map((i) => (i % 2 ? a : b).getPullZone(i)));
  const elapsed = Date.now() - started;
  // 2 free (burst) + 4 more at 10/s = at least ~400 ms.
  t.true(elapsed >= 350, `6 requests took ${elapsed} ms`);
});

test('concurrency cap is shared by clients of one account', async (t) => {
  let inFlight = 0;
  let peak = 0;
  const server = await startLocal((req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    setTimeout(() => {
      inFlight--;
      json(res, 200, { Id: 1 });
    }, 50);
  });
  t.teardown(() => server.close());
  const key = newKey();
  const rateLimit = { requestsPerSecond: 1000, burst: 1000, maxConcurrent: 2 };
  const a = new CdnClient({ baseUrl: server.url, credentials: key, rateLimit });
  const b = new CdnClient({ baseUrl: server.url, credentials: key, rateLimit });
  await Promise.all([1, 2, 3, 4, 5, 6].map((i) => (i % 2 ? a : b).getPullZone(i)));
  t.is(peak, 2);
});

test('client-side range checks fail before any request', async (t) => {
  const server = await startLocal((req, res) => json(res, 200, { Items: [] }));
  t.teardown(() => server.close());
  const c = client(server.url);
  for (const query of [{ page: 0 }, { perPage: 4 }, { perPage: 1001 }, { page: 1.5 }]) {
    const e = await t.throwsAsync(c.listApiKeys(query), { instanceOf: CdnApiError });
    t.is(e.kind, 'invalid');
    t.truthy(e.field);
  }
  t.is(server.seen.length, 0);
});

test('a 2xx answer that is not JSON becomes a server error', async (t) => {
  const server = await startLocal((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<html>maintenance</html>');
  });
  t.teardown(() => server.close());
  const c = client(server.url, { retry: { maxAttempts: 1 } });
  const e = await t.throwsAsync(c.getPullZone(1), { instanceOf: CdnApiError });
  t.is(e.kind, 'server');
});

test('secrets never appear in thrown errors, logs or the client object', async (t) => {
  const apiKey = `ak-${randomUUID()}`;
  const listedKey = `lk-${randomUUID()}`;
  const server = await startLocal((req, res) => {
    if (req.url.startsWith('/apikey'))
      return json(res, 200, {
        Items: [{ Id: 1, Key: listedKey, Roles: ['Admin'] }],
        CurrentPage: 1,
        TotalItems: 1,
        HasMoreItems: false,
      });
    // A hostile/buggy server echoing secrets back in every error field.
    return json(res, 400, {
      ErrorKey: `bad ${apiKey}`,
      Field: listedKey,
      Message: `key ${apiKey} and ${listedKey} rejected`,
    });
  });
  t.teardown(() => server.close());
  const lines: string[] = [];
  const { pino } = await import('pino');
  const logger = pino({ level: 'trace' }, { write: (s: string) => lines.push(s) });
  const c = new CdnClient({ baseUrl: server.url, credentials: apiKey, logger });
  const list = await c.listApiKeys();
  t.is(list.Items?.[0]?.Key, listedKey, 'the caller asked for the keys and gets them');
  const e = await t.throwsAsync(c.updatePullZone(1, {}), { instanceOf: CdnApiError });
  const dumps = [
    JSON.stringify(e),
    inspect(e, { depth: Infinity, showHidden: true }),
    String(e.stack),
    inspect(c, { depth: Infinity, showHidden: true }),
    lines.join('\n'),
  ];
  for (const dump of dumps) {
    t.false(dump.includes(apiKey), 'API key leaked');
    t.false(dump.includes(listedKey), 'listed key leaked');
  }
  t.regex(e.message, /\[REDACTED\]/);
  t.true(lines.length > 0, 'something was logged');
});

test('a failing credential provider gives unauthorized without leaking its text', async (t) => {
  const c = new CdnClient({
    baseUrl: 'http://127.0.0.1:9',
    credentials: {
      getApiKey: () => {
        throw new Error('secret missing');
      },
    },
  });
  const e = await t.throwsAsync(c.getPullZone(1), { instanceOf: CdnApiError });
  t.is(e.kind, 'unauthorized');
  t.regex(e.message, /cannot read the API key/);
});

test('addPullZone with an empty 201 (as the document shows) finds the new zone by name', async (t) => {
  const server = await startLocal((req, res) => {
    if (req.method === 'POST') {
      res.writeHead(201);
      res.end();
      return;
    }
    json(res, 200, {
      Items: [
        { Id: 9, Name: 'other-zone-x' },
        { Id: 5, Name: 'zone-x' },
      ],
      HasMoreItems: false,
    });
  });
  t.teardown(() => server.close());
  const zone = await client(server.url).addPullZone({ Name: 'zone-x' });
  t.is(zone.Id, 5);
  t.is(server.seen[1]!.url, '/pullzone?page=1&perPage=1000&search=zone-x');
});

test('a 2xx shield envelope with a failing error member becomes a CdnApiError', async (t) => {
  const server = await startLocal((req, res) =>
    json(res, 200, {
      data: null,
      error: {
        statusCode: 403,
        success: false,
        message: 'plan too small',
        errorKey: 'shield.plan',
      },
    }),
  );
  t.teardown(() => server.close());
  const e = await t.throwsAsync(client(server.url).getWafRuleMetrics(1, 'r1'), {
    instanceOf: CdnApiError,
  });
  t.like(e, {
    kind: 'unauthorized',
    status: 403,
    errorKey: 'shield.plan',
    detail: 'plan too small',
  });
});

test('shield create without a zone id in the echo reads the zone back by pull zone', async (t) => {
  const server = await startLocal((req, res) => {
    if (req.method === 'POST')
      return json(res, 200, {
        data: { pullZoneId: 12 },
        error: { success: true, statusCode: 200 },
      });
    return json(res, 200, { data: { shieldZoneId: 77, pullZoneId: 12, wafEnabled: false } });
  });
  t.teardown(() => server.close());
  const zone = await client(server.url).createShieldZone({ pullZoneId: 12 });
  t.like(zone, { shieldZoneId: 77, pullZoneId: 12 });
  t.is(server.seen[1]!.url, '/shield/shield-zone/get-by-pullzone/12');
});
