/**
 * The fetch of a tenant's URL (src/common/public-https-fetch.ts) thought of as an attacker
 * would use it: addresses only the operator reaches (loopback, private, link-local and cloud
 * metadata, IPv4-mapped IPv6), by literal and by a name that resolves there; a redirect to
 * somewhere else; a huge body, declared or not; a body that never ends. A local https server
 * (throw-away certificate, loopback allowed for it alone) plays the remote side.
 */
import test from 'ava';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  checkFetchableUrl,
  fetchPublicHttps,
  isPublicAddress,
  UrlFetchError,
} from '../../../src/common/public-https-fetch.js';
import { selfSigned } from '../runtime/kube-fake-server.js';

const ADDRESSES: [string, boolean, string][] = [
  ['8.8.8.8', true, 'a public IPv4 address'],
  ['2606:4700:4700::1111', true, 'a public IPv6 address'],
  ['::ffff:8.8.8.8', true, 'a public IPv4 address mapped into IPv6'],
  ['127.0.0.1', false, 'loopback'],
  ['127.255.0.9', false, 'loopback, anywhere in 127/8'],
  ['::1', false, 'IPv6 loopback'],
  ['10.1.2.3', false, 'private (RFC 1918): pods and services'],
  ['172.20.0.1', false, 'private (RFC 1918)'],
  ['192.168.0.10', false, 'private (RFC 1918)'],
  ['169.254.169.254', false, 'link-local: the cloud metadata endpoint'],
  ['fd00:ec2::254', false, "unique local: AWS's IPv6 metadata endpoint"],
  ['fe80::1', false, 'IPv6 link-local'],
  ['100.100.100.200', false, "carrier NAT: Alibaba's metadata endpoint"],
  ['::ffff:127.0.0.1', false, 'loopback mapped into IPv6'],
  ['::ffff:a9fe:a9fe', false, 'the metadata address mapped into IPv6, in hex'],
  ['64:ff9b::a00:1', false, 'NAT64 of a private address'],
  ['2002:a00:1::', false, '6to4 of a private address'],
  ['0.0.0.0', false, 'the unspecified address (reaches the host itself)'],
  ['224.0.0.1', false, 'multicast'],
  ['not-an-ip', false, 'no address at all'],
];

for (const [address, expected, reason] of ADDRESSES) {
  test(`isPublicAddress(${address}) is ${expected}: ${reason}`, (t) => {
    t.is(isPublicAddress(address), expected);
  });
}

const REFUSED_URLS: [string, RegExp, string][] = [
  ['http://images.example.com/logo.png', /only https/, 'plain http is never fetched'],
  ['ftp://images.example.com/logo.png', /only https/, 'no other scheme either'],
  ['https://user:pw@images.example.com/x.png', /user name or password/, 'no credentials in URLs'],
  ['https://127.0.0.1/x.png', /127\.0\.0\.1 is not a public address/, 'a loopback literal'],
  ['https://[::1]/x.png', /::1 is not a public address/, 'an IPv6 loopback literal'],
  ['https://169.254.169.254/latest/meta-data/', /not a public address/, 'the metadata endpoint'],
  ['https://[::ffff:10.0.0.1]/x.png', /not a public address/, 'a mapped private literal'],
  ['https://2130706433/x.png', /not a public address/, 'loopback spelled as one number'],
  ['not a url', /not a valid URL/, 'garbage'],
];

for (const [url, message, reason] of REFUSED_URLS) {
  test(`refused before any connection: ${url} (${reason})`, async (t) => {
    t.throws(() => checkFetchableUrl(url), { instanceOf: UrlFetchError, message });
    await t.throwsAsync(fetchPublicHttps(url, { maxBytes: 10, timeoutMs: 1000 }), {
      instanceOf: UrlFetchError,
      message,
    });
  });
}

test('the query string never reaches an error (it may carry a token)', (t) => {
  const err = t.throws(() => checkFetchableUrl('http://cdn.example.com/a.png?sig=SECRET'));
  t.false(err?.message.includes('SECRET'));
});

/** A local https server: `routes` answer by path; `hits` counts requests per path. */
async function startServer(
  routes: Record<string, (res: import('node:http').ServerResponse) => void>,
): Promise<{ base: string; ca: string; hits: Record<string, number>; close(): Promise<void> }> {
  const { key, cert } = selfSigned();
  const hits: Record<string, number> = {};
  const server = https.createServer({ key, cert }, (req, res) => {
    const path = req.url ?? '/';
    hits[path] = (hits[path] ?? 0) + 1;
    (routes[path] ?? ((r) => r.writeHead(404).end()))(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `https://127.0.0.1:${port}`,
    ca: cert.toString(),
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

test('against a server: the body, a redirect not followed, huge and endless bodies cut off', async (t) => {
  const server = await startServer({
    '/logo.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
    '/moved': (res) => res.writeHead(302, { location: '/logo.png' }).end(),
    '/declared-huge': (res) => res.writeHead(200, { 'content-length': String(1 << 30) }).write(PNG),
    '/chunked-huge': (res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    },
    '/slow': (res) => {
      res.writeHead(200);
      res.write(PNG.subarray(0, 2));
      // Never ends: a byte now and then keeps an idle timeout from firing.
      const timer = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(timer));
    },
  });
  t.teardown(() => server.close());
  const opts = { maxBytes: 1024, timeoutMs: 1500, allowAddress: () => true, ca: server.ca };

  const ok = await fetchPublicHttps(`${server.base}/logo.png`, opts);
  t.deepEqual(Buffer.from(ok.bytes), PNG);
  t.is(ok.contentType, 'image/png');

  await t.throwsAsync(fetchPublicHttps(`${server.base}/moved`, opts), {
    message: /answered 302: redirects are not followed/,
  });
  t.is(server.hits['/logo.png'], 1, 'the redirect target was never requested');

  await t.throwsAsync(fetchPublicHttps(`${server.base}/declared-huge`, opts), {
    message: /1073741824 bytes, more than the limit of 1024 bytes/,
  });
  await t.throwsAsync(fetchPublicHttps(`${server.base}/chunked-huge`, opts), {
    message: /more than the limit of 1024 bytes/,
  });
  const started = Date.now();
  await t.throwsAsync(fetchPublicHttps(`${server.base}/slow`, opts), {
    message: /no complete answer within 1500 ms/,
  });
  t.true(Date.now() - started < 10_000, 'the deadline covers the body, not only the headers');
});

test('a name that resolves to loopback is refused by the connection lookup itself', async (t) => {
  const server = await startServer({
    '/logo.png': (res) => res.writeHead(200).end(PNG),
  });
  t.teardown(() => server.close());
  const url = server.base.replace('127.0.0.1', 'localhost') + '/logo.png';
  await t.throwsAsync(fetchPublicHttps(url, { maxBytes: 1024, timeoutMs: 3000, ca: server.ca }), {
    instanceOf: UrlFetchError,
    message: /localhost resolves to (127\.0\.0\.1|::1), which is not a public address/,
  });
  t.is(server.hits['/logo.png'], undefined, 'nothing reached the server');
});
