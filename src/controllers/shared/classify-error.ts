/**
 * Maps any error thrown by a kind's connect/observe/create/update/delete to the runtime's
 * error classes. Platform errors keep the API's own field and message (field names mapped
 * back to spec paths when the kind knows how), never a credential.
 */
import { isCdnApiError, type CdnApiError } from '../../cdn/errors.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import { classifyTerminal, TerminalError, WaitingError } from '../../runtime/errors.js';
import { AccountError } from './account-errors.js';

/** Stable reasons produced here. */
export const Reasons = {
  InvalidSpec: 'InvalidSpec',
  Unauthorized: 'Unauthorized',
  NotFound: 'NotFound',
  Conflict: 'ExternalConflict',
  ApiUnavailable: 'ApiUnavailable',
  RateLimited: 'RateLimited',
  ReconcileError: 'ReconcileError',
} as const;

/** Options of {@link classifyCdnError}. */
export interface ClassifyOptions {
  /** Maps an API field name (e.g. `containerTemplates[0].image`) to a spec path. */
  specPathForField?: (apiField: string) => string;
}

/** The API's headline with the per-field entries (listed separately) cut out of it. */
function headlineOf(err: CdnApiError): string {
  let text = err.detail;
  for (const f of err.fields ?? []) text = text.split(`${f.field}: ${f.message}`).join('');
  return text.replace(/([:;,]\s*){2,}/g, '; ').replace(/^[\s:;,.]+|[\s:;,]+$/g, '');
}

function describeFields(err: CdnApiError, options: ClassifyOptions): string {
  const map = options.specPathForField ?? ((f: string): string => f);
  if (err.fields?.length) {
    const parts = err.fields.map((f) => `${map(f.field)}: ${f.message}`);
    const head = headlineOf(err);
    return (head ? `${head}: ` : '') + parts.join('; ');
  }
  return err.field ? `${map(err.field)}: ${err.detail}` : err.detail;
}

function classifyApiError(err: CdnApiError, options: ClassifyOptions): ClassifiedError {
  const where = `${err.operation}${err.status ? ` (HTTP ${err.status})` : ''}`;
  switch (err.kind) {
    case 'invalid':
      return {
        class: 'terminal',
        reason: Reasons.InvalidSpec,
        message: `${where}: ${describeFields(err, options)}`,
      };
    case 'unauthorized':
      return {
        class: 'unauthorized',
        reason: Reasons.Unauthorized,
        message: `${where}: the API key was rejected: ${err.detail}`,
      };
    case 'notFound':
      return { class: 'terminal', reason: Reasons.NotFound, message: `${where}: ${err.detail}` };
    case 'conflict':
      return { class: 'retryable', reason: Reasons.Conflict, message: `${where}: ${err.detail}` };
    case 'rateLimited':
      return withRetryAfter(
        {
          class: 'retryable',
          reason: Reasons.RateLimited,
          message: `${where}: ${err.detail}`,
          notApplied: true,
        },
        err,
      );
    default:
      return withRetryAfter(
        {
          class: 'retryable',
          reason: Reasons.ApiUnavailable,
          message: `${where}: ${err.detail}`,
          // 503: the platform did not take the request on. Other 5xx, timeouts and lost
          // connections may have applied it (a create then becomes pending, not repeated).
          ...(err.status === 503 ? { notApplied: true } : {}),
        },
        err,
      );
  }
}

function withRetryAfter(
  c: ClassifiedError & { class: 'retryable' },
  err: CdnApiError,
): ClassifiedError {
  return err.retryAfterMs !== undefined ? { ...c, retryAfterMs: err.retryAfterMs } : c;
}

/** Classifies CDN client errors, TerminalError and WaitingError; anything else is retryable. */
export function classifyCdnError(err: unknown, options: ClassifyOptions = {}): ClassifiedError {
  if (isCdnApiError(err)) return classifyApiError(err, options);
  if (err instanceof AccountError)
    return { class: 'retryable', reason: err.reason, message: err.message };
  if (err instanceof TerminalError) return classifyTerminal(err);
  if (err instanceof WaitingError) {
    return err.requeueAfterMs !== undefined
      ? {
          class: 'waiting',
          reason: err.reason,
          message: err.message,
          requeueAfterMs: err.requeueAfterMs,
        }
      : { class: 'waiting', reason: err.reason, message: err.message };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { class: 'retryable', reason: Reasons.ReconcileError, message };
}
