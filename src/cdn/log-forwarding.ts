/**
 * Log forwarding of container applications (`/mc/log/forwarding`), one configuration per
 * application. The syslog `token` of a request is registered as a secret with the transport
 * before it is sent; a token found in an answer is registered too and dropped, so reads never
 * hand it to a caller. What a caller may learn of it: whether one is set (`tokenSet`) and,
 * when it asks with `compareToken`, whether it equals a value it already holds
 * (`tokenMatches`, compared in memory, digest against digest). Writes are retried only after
 * a 429.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectObject, isRecord } from './response.js';
import { registerSentSecret } from './secret-forms.js';
import type { LogForwarding, LogForwardingRequest } from './security-types.js';
import { checkIntRange, checkNonEmpty } from './validate.js';

/** Options of a read. */
export interface LogForwardingReadOptions extends CallOptions {
  /**
   * A token the caller holds (e.g. read from a Secret), compared with the platform's in
   * memory; the answer says `tokenMatches`. Never sent.
   */
  compareToken?: string;
}

function sameSecret(a: string, b: string): boolean {
  const digest = (v: string): Buffer => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * A configuration as the caller sees it: the token registered as a secret, then dropped; only
 * `tokenSet` and (asked for) `tokenMatches` say anything about it. An answer without a
 * `token` member tells nothing, so both stay absent.
 */
function withoutToken(
  http: HttpTransport,
  raw: Record<string, unknown>,
  compareToken?: string,
): LogForwarding {
  const { token, tokenSet: _set, tokenMatches: _matches, ...rest } = raw;
  const value = typeof token === 'string' && token !== '' ? token : undefined;
  registerSentSecret(http, value);
  const out: LogForwarding = rest;
  if (!Object.hasOwn(raw, 'token')) return out;
  out.tokenSet = value !== undefined;
  if (compareToken !== undefined)
    out.tokenMatches = value !== undefined && sameSecret(value, compareToken);
  return out;
}

function checkRequest(http: HttpTransport, operation: string, body: LogForwardingRequest): void {
  checkNonEmpty(http, operation, 'app', body.app);
  checkNonEmpty(http, operation, 'endpoint', body.endpoint);
  checkIntRange(http, operation, 'port', body.port, 1, 65535);
}

/** Every log forwarding configuration of the account. */
export async function listLogForwarding(
  http: HttpTransport,
  opts?: CallOptions,
): Promise<LogForwarding[]> {
  const operation = 'listLogForwarding';
  const res = await http.request({ operation, method: 'GET', path: '/mc/log/forwarding' }, opts);
  const body = expectObject<{ items?: unknown }>(http, operation, res.body);
  const items = Array.isArray(body.items) ? body.items : [];
  return items.filter(isRecord).map((item) => withoutToken(http, item));
}

/**
 * The configuration of one application, or undefined when it forwards nothing (404). With
 * `opts.compareToken` the answer says whether the platform's token equals it.
 */
export async function getLogForwarding(
  http: HttpTransport,
  appId: string,
  opts?: LogForwardingReadOptions,
): Promise<LogForwarding | undefined> {
  const operation = 'getLogForwarding';
  checkNonEmpty(http, operation, 'appId', appId);
  const { compareToken, ...callOpts } = opts ?? {};
  try {
    const res = await http.request(
      { operation, method: 'GET', path: pathOf`/mc/log/forwarding/${appId}` },
      callOpts,
    );
    return withoutToken(http, expectObject(http, operation, res.body), compareToken);
  } catch (e) {
    if ((e as { kind?: unknown }).kind === 'notFound') return undefined;
    throw e;
  }
}

/** Creates the configuration of `body.app` (one per application). */
export async function createLogForwarding(
  http: HttpTransport,
  body: LogForwardingRequest,
  opts?: CallOptions,
): Promise<LogForwarding> {
  const operation = 'createLogForwarding';
  registerSentSecret(http, body.token);
  checkRequest(http, operation, body);
  const res = await http.request(
    { operation, method: 'POST', path: '/mc/log/forwarding', body },
    opts,
  );
  return withoutToken(http, expectObject(http, operation, res.body));
}

/**
 * `PUT`: replaces the configuration of `appId` (`body.app` must be the same application); a
 * token left out keeps the one set before.
 */
export async function replaceLogForwarding(
  http: HttpTransport,
  appId: string,
  body: LogForwardingRequest,
  opts?: CallOptions,
): Promise<LogForwarding> {
  const operation = 'replaceLogForwarding';
  registerSentSecret(http, body.token);
  checkNonEmpty(http, operation, 'appId', appId);
  checkRequest(http, operation, body);
  if (body.app !== appId) {
    const why = `app ${body.app} is not the application ${appId} of the path`;
    throw http.failure(operation, 'invalid', why, { field: 'app' });
  }
  const res = await http.request(
    { operation, method: 'PUT', path: pathOf`/mc/log/forwarding/${appId}`, body },
    opts,
  );
  return withoutToken(http, expectObject(http, operation, res.body));
}

/** Deletes the configuration of an application (`notFound` when there is none). */
export async function deleteLogForwarding(
  http: HttpTransport,
  appId: string,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'deleteLogForwarding';
  checkNonEmpty(http, operation, 'appId', appId);
  await http.request(
    { operation, method: 'DELETE', path: pathOf`/mc/log/forwarding/${appId}` },
    opts,
  );
}
