/**
 * Reads the error bodies of the management API. The contract lists six shapes: ApiErrorData
 * (`ErrorKey`/`Field`/`Message`), a validation problem (`title`/`detail`/`errors[]`), a basic
 * problem (`type`/`title`/`detail`), status only (`statusCode`), the shield single-zone
 * result (`location`/`declaredType`/`statusCode`) and the metrics `error` member
 * (`statusCode`/`success`/`message`/`errorKey`, also found inside `{data, error}` envelopes and
 * as the `errorResponse` member of the shield rule answers).
 * A body that is not JSON still yields a short message.
 */
import type { CdnFieldError } from './errors.js';

/** What an error body told us. `message` is always set. */
export interface ParsedError {
  message: string;
  errorKey?: string;
  field?: string;
  fields?: CdnFieldError[];
  /** A status code stated inside the body (shield shapes), which may differ from the HTTP one. */
  statusCode?: number;
}

type Json = Record<string, unknown>;

const MAX_TEXT = 300;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses `errors[]` of a validation problem; entries without a message are skipped. */
function parseFieldErrors(v: unknown): CdnFieldError[] {
  if (!Array.isArray(v)) return [];
  const out: CdnFieldError[] = [];
  for (const item of v) {
    if (!isObject(item)) continue;
    const message = str(item.message) ?? str(item.Message);
    if (!message) continue;
    out.push({ field: str(item.field) ?? str(item.Field) ?? '', message });
  }
  return out;
}

/** ApiErrorData: `ErrorKey`, `Field`, `Message`. */
function parseApiErrorData(body: Json): ParsedError | undefined {
  if (!('Message' in body || 'ErrorKey' in body || 'Field' in body)) return undefined;
  const message = str(body.Message) ?? str(body.ErrorKey) ?? '';
  return withOptional({ message }, str(body.ErrorKey), str(body.Field));
}

/** Validation problem and basic problem (RFC 7807 style). */
function parseProblem(body: Json): ParsedError | undefined {
  if (!('title' in body || 'detail' in body || 'errors' in body || 'type' in body))
    return undefined;
  const fields = parseFieldErrors(body.errors);
  const listed = fields.map((f) => (f.field ? `${f.field}: ${f.message}` : f.message)).join('; ');
  const message = [str(body.detail) ?? str(body.title), listed].filter(Boolean).join(': ');
  const parsed = withOptional({ message }, undefined, fields[0]?.field || undefined);
  if (fields.length > 0) parsed.fields = fields;
  const statusCode = num(body.status);
  if (statusCode !== undefined) parsed.statusCode = statusCode;
  return parsed;
}

/** Metrics/shield `error` member, status-only and shield single-zone result shapes. */
function parseStatusShapes(body: Json): ParsedError | undefined {
  // The shield rule answers carry their result in `errorResponse` instead of `error`.
  const member = isObject(body.error) ? body.error : body.errorResponse;
  const inner = isObject(member) ? member : body;
  const statusCode = num(inner.statusCode);
  const message = str(inner.message);
  if (statusCode === undefined && message === undefined) return undefined;
  const parsed = withOptional({ message: message ?? '' }, str(inner.errorKey), undefined);
  if (statusCode !== undefined) parsed.statusCode = statusCode;
  return parsed;
}

function withOptional(base: ParsedError, errorKey?: string, field?: string): ParsedError {
  if (errorKey) base.errorKey = errorKey;
  if (field) base.field = field;
  return base;
}

/** Parses a JSON error body; undefined when it matches none of the known shapes. */
export function parseErrorJson(body: unknown): ParsedError | undefined {
  if (!isObject(body)) return undefined;
  return parseApiErrorData(body) ?? parseProblem(body) ?? parseStatusShapes(body);
}

/**
 * Turns a raw error response into a {@link ParsedError}. Falls back to the (shortened) text
 * for non-JSON bodies and to `HTTP <status> <statusText>` for empty ones.
 */
export function parseErrorBody(text: string, status: number, statusText: string): ParsedError {
  const fallback = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  const trimmed = text.trim();
  if (trimmed === '') return { message: fallback };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { message: `${fallback}: ${shorten(stripMarkup(trimmed))}` };
  }
  const parsed = parseErrorJson(json);
  if (!parsed) return { message: `${fallback}: ${shorten(trimmed)}` };
  if (parsed.message === '') parsed.message = fallback;
  return parsed;
}

/** Reduces an HTML error page to its text so the message stays readable. */
function stripMarkup(text: string): string {
  if (!text.startsWith('<')) return text;
  return text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > MAX_TEXT ? `${oneLine.slice(0, MAX_TEXT)}…` : oneLine;
}
