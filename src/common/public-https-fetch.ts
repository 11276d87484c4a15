/**
 * One GET of a URL a tenant wrote into a spec, made so that the tenant cannot turn the operator
 * against what only the operator reaches (SSRF):
 *
 * - `https:` only, no user name or password in the URL;
 * - every address the host resolves to must be public: loopback, private (RFC 1918, unique
 *   local), link-local (where cloud metadata answers: 169.254.169.254, fd00:ec2::254), carrier
 *   NAT (100.64/10, Alibaba's metadata), multicast, reserved, documentation, NAT64 and 6to4
 *   ranges are refused, and so is a host with one such address among others. The check sits in
 *   the connection's own lookup, so the address checked is the address connected to (no second
 *   resolution a rebinding DNS server could answer differently); an address literal is checked
 *   before;
 * - redirects are never followed (a 3xx is refused: its target would need the same checks, and
 *   an image has no reason to move);
 * - one deadline for the whole exchange (connect, headers, body), so a slow body cannot hold a
 *   pass; a size cap checked on Content-Length and again on every chunk, so a huge body is cut
 *   off, never buffered.
 *
 * No Kubernetes, CDN or controller imports (src/common).
 */
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import dns from 'node:dns';
import https from 'node:https';
import net from 'node:net';

/** A refused or failed fetch: `message` is `cannot fetch <url>: <why>` (the URL without its query). */
export class UrlFetchError extends Error {
  constructor(
    readonly url: string,
    readonly why: string,
  ) {
    super(`cannot fetch ${url}: ${why}`);
    this.name = 'UrlFetchError';
  }
}

/** What a fetch may take. */
export interface PublicFetchOptions {
  /** The largest body taken, in bytes. */
  maxBytes: number;
  /** The whole exchange's deadline, in milliseconds. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Which resolved addresses may be connected to (default {@link isPublicAddress}; tests widen it). */
  allowAddress?: (address: string) => boolean;
  /** Extra trusted CA certificates (PEM), for a test server. */
  ca?: string;
}

/** The body and its declared media type. */
export interface FetchedBody {
  bytes: Uint8Array;
  contentType?: string;
}

/** The ranges no tenant URL may reach (see the module comment). */
const NON_PUBLIC: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001::', 23, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['2002::', 16, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const BLOCKED = new net.BlockList();
for (const [prefix, bits, family] of NON_PUBLIC) BLOCKED.addSubnet(prefix, bits, family);

/**
 * Whether `address` (an IP literal) is a public unicast address. An IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`) is judged as the IPv4 address it maps.
 */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return isPublicAddress(mapped);
  return !BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A connection lookup that answers only when every address of the host is allowed. */
function guardedLookup(allow: (address: string) => boolean) {
  return (
    hostname: string,
    options: LookupOneOptions | LookupAllOptions,
    callback: LookupCallback,
  ): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !allow(a.address));
      const first = addresses[0];
      if (refused || !first) {
        const why = refused
          ? `${hostname} resolves to ${refused.address}, which is not a public address`
          : `${hostname} has no address`;
        return callback(Object.assign(new Error(why), { code: 'EREFUSEDADDRESS' }), []);
      }
      if (options.all === true) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/** The URL as errors show it: no query or fragment (they may carry a token). */
function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The parsed URL, or the refusal of one the rules never fetch. */
export function checkFetchableUrl(
  raw: string,
  allow: (address: string) => boolean = isPublicAddress,
): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlFetchError('<invalid URL>', 'not a valid URL');
  }
  if (url.protocol !== 'https:')
    throw new UrlFetchError(shownUrl(url), 'only https URLs are fetched');
  if (url.username !== '' || url.password !== '')
    throw new UrlFetchError(shownUrl(url), 'a URL with a user name or password is not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) !== 0 && !allow(host))
    throw new UrlFetchError(shownUrl(url), `${host} is not a public address`);
  return url;
}

/** GETs `raw` under the rules of the module comment. */
export async function fetchPublicHttps(
  raw: string,
  opts: PublicFetchOptions,
): Promise<FetchedBody> {
  const allow = opts.allowAddress ?? isPublicAddress;
  const url = checkFetchableUrl(raw, allow);
  const shown = shownUrl(url);
  return new Promise<FetchedBody>((resolve, reject) => {
    const req = https.request(url, {
      method: 'GET',
      headers: { accept: 'image/*', 'accept-encoding': 'identity' },
      lookup: guardedLookup(allow),
      agent: false,
      ...(opts.ca ? { ca: opts.ca } : {}),
    });
    // Settles once: the first outcome wins, later events (the destroyed socket's) change nothing.
    const settle = (outcome: () => void): void => {
      clearTimeout(deadline);
      opts.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (why: string): void =>
      settle(() => {
        req.destroy();
        reject(new UrlFetchError(shown, why));
      });
    const deadline = setTimeout(
      () => fail(`no complete answer within ${opts.timeoutMs} ms`),
      opts.timeoutMs,
    );
    const onAbort = (): void => fail('aborted');
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => fail(err.message));
    req.on('response', (res) => {
      readBody(res, opts.maxBytes, fail, (bytes) => {
        const type = res.headers['content-type'];
        settle(() => resolve({ bytes, ...(type ? { contentType: type } : {}) }));
      });
    });
    req.end();
  });
}

/** Reads an answer: a 2xx body up to `maxBytes`, else `fail` with the reason. */
function readBody(
  res: import('node:http').IncomingMessage,
  maxBytes: number,
  fail: (why: string) => void,
  ok: (bytes: Uint8Array) => void,
): void {
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400) return fail(`answered ${status}: redirects are not followed`);
  if (status < 200 || status >= 300) return fail(`answered ${status}`);
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (declared > maxBytes)
    return fail(`the body is ${declared} bytes, more than the limit of ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) fail(`the body is more than the limit of ${maxBytes} bytes`);
    else chunks.push(chunk);
  });
  res.on('end', () => {
    if (size <= maxBytes) ok(Buffer.concat(chunks));
  });
  res.on('error', (err) => fail(err.message));
}
