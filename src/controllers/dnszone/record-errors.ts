/**
 * The errors of a zone's inline records and how they are classified, so that the conditions
 * say which entry of `spec.records` is at fault:
 *
 * - a record call the platform refused (or that failed) names the entry it applied
 *   (`spec.records[1] (A www "x")`), and the members the platform names are mapped to that
 *   entry's spec paths (`spec.records[1].value (Value)`); the class stays the platform
 *   error's (a 400 is InvalidSpec, a 5xx is retried);
 * - a listed record another object manages is `Synced=False RecordManagedElsewhere`, retried
 *   with backoff (it resolves when that object lets the record go, which no event of this
 *   zone announces), nothing written meanwhile.
 */
import type { ClassifiedError } from '../../runtime/errors.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { INLINE_RECORD_FIELDS } from './record-fields.js';
import { entryPath, type RecordAction } from './records.js';

/** Reason of Synced=False while a listed record is managed by another object. */
export const RecordManagedElsewhere = 'RecordManagedElsewhere';

/** A record call that failed, with the action it was sent for. */
export class RecordCallError extends Error {
  constructor(
    readonly action: RecordAction,
    override readonly cause: unknown,
  ) {
    super(`${describeAction(action)}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'RecordCallError';
  }
}

/** Listed records another object manages: the zone writes nothing until that is resolved. */
export class RecordConflictError extends Error {
  constructor(conflicts: readonly string[]) {
    super(
      `cannot manage spec.records: ${conflicts.join('; ')}; nothing is written to the zone until the entry is removed from spec.records or that object no longer manages the record`,
    );
    this.name = 'RecordConflictError';
  }
}

/** `spec.records[1] (A www "x")` for a create or update, `record A old "x" (id 7)` for a delete. */
function describeAction(action: RecordAction): string {
  if (action.op === 'delete') return `record ${action.label} (id ${action.id})`;
  return `${entryPath(action.entry)} (${action.label})`;
}

/** Maps an API member a refusal names to the spec path of the entry the call applied. */
function memberPath(
  action: RecordAction,
  fallback: (apiField: string) => string,
): (apiField: string) => string {
  return (apiField: string): string => {
    const member = INLINE_RECORD_FIELDS.find((f) => f.api === apiField);
    if (action.op === 'delete' || member === undefined) return fallback(apiField);
    return `${entryPath(action.entry)}.${member.spec} (${apiField})`;
  };
}

/**
 * Classifies a DnsZone error: record call failures name their entry, conflicts are
 * RecordManagedElsewhere, everything else as every kind does (`specPathForField` maps the
 * zone's own API members to spec paths).
 */
export function classifyDnsZoneError(
  err: unknown,
  specPathForField: (apiField: string) => string,
): ClassifiedError {
  if (err instanceof RecordConflictError)
    return { class: 'retryable', reason: RecordManagedElsewhere, message: err.message };
  if (!(err instanceof RecordCallError)) return classifyCdnError(err, { specPathForField });
  const inner = classifyCdnError(err.cause, {
    specPathForField: memberPath(err.action, specPathForField),
  });
  return { ...inner, message: `${describeAction(err.action)}: ${inner.message}` };
}
