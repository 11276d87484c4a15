/**
 * The transport under CdnClient: builds URLs, sends JSON with node-fetch over keep-alive
 * agents, applies the per-account limiter, the per-attempt timeout and the retry policy, and
 * turns every failure into a CdnApiError. The API key is read from the credential provider
 * for each attempt, used for the `AccessKey` header and otherwise only registered as a secret
 * to scrub; it never reaches a log line or an error.
 */
import http from 'node:http';
import https from 'node:https';
import nodeFetch from 'node-fetch';
import type { Logger } from 'pino';
import { accountIdFor, toCredentialProvider, type CredentialProvider } from './credentials.js';
import { CdnApiError, kindForStatus, type CdnApiErrorInit, type CdnErrorKind } from './errors.js';
import {
  DEFAULT_BASE_URL,
  DEFAULT_RATE_LIMIT,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  MAX_RETRY_AFTER_MS,
  type CallOptions,
  type CdnClientHooks,
  type CdnClientOptions,
  type FetchLike,
  type RateLimitOptions,
  type RetryOptions,
} from './options.js';
import { parseErrorBody } from './parse-error.js';
import { limiterFor, type AccountLimiter } from './rate-limit.js';
// Neutral helper (no Kubernetes code): the context of the reconcile pass making the call.
import {
  currentRequestPriority,
  currentTenant,
  mayWriteNow,
  waitOutside,
} from '../common/pass-context.js';
import { SecretSet, scrubSecretValues } from './redact.js';
import { boundRetryAfter, parseRetryAfter, retryDelay, sleep } from './retry.js';
// Neutral timer helper (no Kubernetes code): one clamp for every timer in the process.
import { setSafeTimeout } from '../common/timers.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One API call as the area modules describe it. */
export interface RequestSpec {
  /** Client method name, used in errors, logs and metrics. */
  operation: string;
  method: HttpMethod;
  /** Path below the base URL, path parameters already encoded (see {@link pathOf}). */
  path: string;
  /** Query parameters; an array is sent once per item (`type=1&type=2`), undefined not at all. */
  query?: Record<string, string | number | boolean | readonly number[] | undefined>;
  body?: unknown;
  /**
   * Request Content-Type when there is a body (default application/json). A string body with
   * a type that is not JSON (a custom page's HTML) is sent as it is.
   */
  contentType?: string;
  /**
   * A body sent as is (a file upload: a zone file as text, an image as bytes) instead of `body`
   * as JSON. Bytes go on the wire untouched, never through a text encoding.
   */
  rawBody?: string | Uint8Array;
  /** Accept header (default application/json), for operations that answer a file. */
  accept?: string;
  /** Whether the request may be resent after a transient failure (default: GET only). */
  idempotent?: boolean;
}

/** A successful answer: status and the parsed JSON body (undefined when empty, text when not JSON). */
export interface HttpResponse {
  status: number;
  body: unknown;
}

/** Builds a path from a template literal, encoding every interpolated value. */
export function pathOf(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return strings.reduce(
    (acc, s, i) => acc + s + (i < values.length ? encodeURIComponent(String(values[i])) : ''),
    '',
  );
}

interface AttemptResult {
  response?: HttpResponse;
  error?: CdnApiError;
  status?: number;
}

/** See the module comment. One instance per CdnClient. */
export class HttpTransport {
  readonly baseUrl: string;
  readonly #credentials: CredentialProvider;
  readonly #secrets = new SecretSet();
  readonly #retry: RetryOptions;
  readonly #rateLimit: RateLimitOptions;
  readonly #timeoutMs: number;
  readonly #userAgent: string;
  readonly #hooks: CdnClientHooks;
  readonly #log: Logger | undefined;
  readonly #fetch: FetchLike;
  readonly #httpAgent = new http.Agent({ keepAlive: true });
  readonly #httpsAgent = new https.Agent({ keepAlive: true });

  constructor(options: CdnClientOptions) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#credentials = toCredentialProvider(options.credentials);
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#rateLimit = { ...DEFAULT_RATE_LIMIT, ...options.rateLimit };
    if (typeof options.credentials === 'string') {
      this.#secrets.add(options.credentials);
      // Register the account's limiter now, so the first client constructed fixes the limits.
      limiterFor(accountIdFor(options.credentials), this.#rateLimit);
    }
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.#hooks = options.hooks ?? {};
    this.#log = options.logger;
    this.#fetch = options.fetch ?? (nodeFetch as unknown as FetchLike);
  }

  /** Registers a value (e.g. a `Key` from an API key list) to scrub from every error. */
  registerSecret(value: string | null | undefined): void {
    this.#secrets.add(value);
  }

  /** Creates a CdnApiError whose texts are scrubbed of every known secret. */
  error(init: CdnApiErrorInit): CdnApiError {
    const scrub = (s: string): string => scrubSecretValues(this.#secrets.scrub(s));
    const clean: CdnApiErrorInit = { ...init, message: scrub(init.message) };
    if (init.detail !== undefined) clean.detail = scrub(init.detail);
    if (init.field !== undefined) clean.field = scrub(init.field);
    if (init.errorKey !== undefined) clean.errorKey = scrub(init.errorKey);
    if (init.fields)
      clean.fields = init.fields.map((f) => ({ field: scrub(f.field), message: scrub(f.message) }));
    return new CdnApiError(clean);
  }

  /** A failure described by the operation and why: message `cannot <operation>: <why>`. */
  failure(
    operation: string,
    kind: CdnErrorKind,
    why: string,
    extra: Partial<CdnApiErrorInit> = {},
  ): CdnApiError {
    return this.error({
      ...extra,
      operation,
      kind,
      message: `cannot ${operation}: ${why}`,
      detail: why,
    });
  }

  /**
   * The account's request rate now (requests per second, the adaptive rate of its limiter):
   * what a background reader's budget is a share of.
   */
  async accountRate(): Promise<number> {
    const apiKey = await this.#apiKey('accountRate');
    return limiterFor(accountIdFor(apiKey), this.#rateLimit).rate.current;
  }

  /** Releases the keep-alive sockets (a CLI calls this before exiting). */
  close(): void {
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
  }

  /**
   * Sends one API call, retrying idempotent ones on transient failures and any one refused
   * with a 429, within the budget.
   * Resolves with the 2xx answer; rejects with a CdnApiError.
   */
  async request(spec: RequestSpec, opts: CallOptions = {}): Promise<HttpResponse> {
    const idempotent = spec.idempotent ?? spec.method === 'GET';
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const result = await this.#attempt(spec, attempt, opts);
      if (result.response) return result.response;
      const error = result.error as CdnApiError;
      const elapsedMs = Date.now() - started;
      const delay = this.#retryDelay(error, attempt, elapsedMs, idempotent, opts);
      if (delay === undefined) throw error;
      this.#log?.debug(
        {
          operation: spec.operation,
          attempt,
          kind: error.kind,
          status: error.status,
          delayMs: delay,
        },
        'Retrying CDN API request',
      );
      try {
        // A wait for this account only: the pass holds no shared capacity meanwhile.
        await waitOutside(() => sleep(delay, opts.signal));
      } catch {
        throw error;
      }
    }
  }

  /** The wait before the next attempt, or undefined when the call must fail now. */
  #retryDelay(
    error: CdnApiError,
    attempt: number,
    elapsedMs: number,
    idempotent: boolean,
    { signal, background }: CallOptions,
  ): number | undefined {
    // Nothing is retried for a caller that gave up, nor by a deposed leader
    // (see common/pass-context.ts).
    if (signal?.aborted === true || !mayWriteNow() || background === true) return undefined;
    return retryDelay({ error, attempt, elapsedMs, idempotent }, this.#retry);
  }

  async #attempt(spec: RequestSpec, attempt: number, opts: CallOptions): Promise<AttemptResult> {
    const started = performance.now();
    const result = await this.#send(spec, opts).catch((e: unknown): AttemptResult => ({
      error: this.#fromThrown(spec.operation, e, opts.signal),
    }));
    const durationMs = performance.now() - started;
    this.#emit(spec, attempt, durationMs, result);
    return result;
  }

  async #send(spec: RequestSpec, opts: CallOptions): Promise<AttemptResult> {
    const { signal } = opts;
    const apiKey = await this.#apiKey(spec.operation);
    const limiter = limiterFor(accountIdFor(apiKey), this.#rateLimit);
    const release = await acquireTurn(limiter, opts);
    const sentAt = Date.now();
    const attempt = attemptSignal(signal, this.#timeoutMs);
    const combined = attempt.signal;
    try {
      this.#checkFence(spec);
      const res = await this.#fetch(this.#url(spec), {
        method: spec.method,
        headers: this.#headers(spec, apiKey),
        ...payloadOf(spec),
        signal: combined,
        agent: (url: URL) => (url.protocol === 'http:' ? this.#httpAgent : this.#httpsAgent),
      });
      const text = await res.text();
      if (res.status >= 200 && res.status < 300) {
        limiter.onAnswer(res.status, false, sentAt);
        return { response: { status: res.status, body: parseBody(text) }, status: res.status };
      }
      const retryAfter = boundRetryAfter(
        parseRetryAfter(res.headers.get('retry-after')),
        MAX_RETRY_AFTER_MS,
      );
      // A background read's refusal backs off that reader only (CallOptions.background).
      const shared = opts.background === true ? undefined : limiter;
      shared?.onAnswer(res.status, retryAfter !== undefined, sentAt);
      return {
        error: this.#httpError(
          spec.operation,
          res.status,
          res.statusText,
          text,
          retryAfter,
          shared,
        ),
        status: res.status,
      };
    } catch (e) {
      throw attempt.timedOut() && !signal?.aborted ? this.#timeoutError(spec.operation) : e;
    } finally {
      attempt.dispose();
      release();
    }
  }

  async #apiKey(operation: string): Promise<string> {
    let key: string;
    try {
      key = await this.#credentials.getApiKey();
    } catch (e) {
      throw this.failure(operation, 'unauthorized', `cannot read the API key: ${errorText(e)}`);
    }
    if (typeof key !== 'string' || key === '') {
      throw this.failure(operation, 'unauthorized', 'the API key is empty');
    }
    this.#secrets.add(key);
    return key;
  }

  #headers(spec: RequestSpec, apiKey: string): Record<string, string> {
    const headers: Record<string, string> = {
      AccessKey: apiKey,
      Accept: spec.accept ?? 'application/json',
      'User-Agent': this.#userAgent,
    };
    if (spec.body !== undefined || spec.rawBody !== undefined)
      headers['Content-Type'] = spec.contentType ?? 'application/json';
    return headers;
  }

  #url(spec: RequestSpec): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (typeof value === 'object') for (const item of value) params.append(name, String(item));
      else if (value !== undefined) params.set(name, String(value));
    }
    const qs = params.toString();
    return `${this.baseUrl}${spec.path}${qs ? `?${qs}` : ''}`;
  }

  #httpError(
    operation: string,
    status: number,
    statusText: string,
    text: string,
    retryAfterMs: number | undefined,
    limiter: AccountLimiter | undefined,
  ): CdnApiError {
    const parsed = parseErrorBody(text, status, statusText);
    // A server asking us to slow down applies to every caller of the account, not just this one.
    if (retryAfterMs !== undefined && (status === 429 || status === 503))
      limiter?.pauseFor(retryAfterMs);
    const extra: Partial<CdnApiErrorInit> = { status };
    if (parsed.errorKey) extra.errorKey = parsed.errorKey;
    if (parsed.field) extra.field = parsed.field;
    if (parsed.fields) extra.fields = parsed.fields;
    if (retryAfterMs !== undefined) extra.retryAfterMs = retryAfterMs;
    return this.failure(operation, kindForStatus(status), parsed.message, extra);
  }

  #timeoutError(operation: string): CdnApiError {
    return this.failure(operation, 'timeout', `no answer within ${this.#timeoutMs} ms`);
  }

  /**
   * The lease may have been lost while a request waited for a token or while the process was
   * frozen: a write is checked against the fence right before it goes on the wire.
   */
  #checkFence(spec: RequestSpec): void {
    if (spec.method === 'GET' || mayWriteNow()) return;
    throw this.failure(spec.operation, 'network', 'not sent: this replica is no longer the leader');
  }

  #fromThrown(operation: string, e: unknown, signal?: AbortSignal): CdnApiError {
    if (e instanceof CdnApiError) return e;
    if (signal?.aborted) return this.failure(operation, 'timeout', 'aborted by the caller');
    const code = (e as { code?: unknown }).code;
    const why = `network error${typeof code === 'string' ? ` ${code}` : ''}: ${errorText(e)}`;
    return this.failure(operation, 'network', why);
  }

  #emit(spec: RequestSpec, attempt: number, durationMs: number, result: AttemptResult): void {
    const status = result.status ?? result.error?.status;
    const kind = result.error?.kind;
    const event = {
      operation: spec.operation,
      method: spec.method,
      status,
      durationMs,
      attempt,
      ...(kind ? { kind } : {}),
    };
    this.#log?.debug(event, 'CDN API request');
    try {
      this.#hooks.onRequest?.(event);
    } catch {
      // A failing metrics hook must not turn a good call into a failure.
    }
  }
}

/**
 * The account limiter's go for one request. Held back by its own account (no token, a
 * Retry-After pause), the reconcile pass waits without the platform slot it holds, so a
 * throttled account stalls only itself (common/pass-context.ts).
 */
async function acquireTurn(limiter: AccountLimiter, opts: CallOptions): Promise<() => void> {
  const now = limiter.tryAcquire();
  if (now) return now;
  const priority = opts.priority ?? currentRequestPriority() ?? 'high';
  return waitOutside(() => limiter.acquire(opts.signal, priority, currentTenant()));
}

/**
 * The signal of one attempt: aborts when the caller's signal does or after `timeoutMs`.
 * Built by hand instead of `AbortSignal.any([signal, AbortSignal.timeout()])`: on Node 20 every
 * `any` over a process-lifetime signal stays reachable from it (nodejs/node#55351), about
 * 70 bytes per request forever. `dispose` removes the listener and the timer.
 */
function attemptSignal(
  parent: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; timedOut(): boolean; dispose(): void } {
  const ctrl = new AbortController();
  let timedOut = false;
  const onParent = (): void => ctrl.abort(parent?.reason);
  const timer = setSafeTimeout(() => {
    timedOut = true;
    ctrl.abort(new Error('timeout'));
  }, timeoutMs);
  if (parent?.aborted) onParent();
  else parent?.addEventListener('abort', onParent, { once: true });
  return {
    signal: ctrl.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
    },
  };
}

/**
 * The request body: `rawBody` as it is; a string sent with a non-JSON content type (a page's
 * HTML) as it is; else `body` as JSON; else none.
 */
function payloadOf(spec: RequestSpec): { body?: string | Uint8Array } {
  if (spec.rawBody !== undefined) return { body: spec.rawBody };
  if (spec.body === undefined) return {};
  const raw = typeof spec.body === 'string' && !/json/i.test(spec.contentType ?? 'json');
  return { body: raw ? (spec.body as string) : JSON.stringify(spec.body) };
}

function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
