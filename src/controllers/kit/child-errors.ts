/**
 * The errors of a keyed child list (child-list.ts) and how they are classified, so that the
 * conditions say which entry of the spec list is at fault:
 *
 * - a plan that cannot be applied as the spec says is refused before anything is written: an
 *   adopted child that is gone is NotFound (terminal: it is never created again), a listed
 *   child another object manages is Synced=False with the list's `conflictReason`, retried with
 *   backoff (it resolves when that object lets the child go, which no event of the parent
 *   announces);
 * - a child call the platform refused (or that failed) names the entry it applied
 *   (`spec.records[1] (A www "x")`), and the members the platform names are mapped to that
 *   entry's spec paths (`spec.records[1].value (Value)`); the class stays the platform error's
 *   (a 400 is InvalidSpec, a 5xx is retried).
 */
import { TerminalError, type ClassifiedError } from '../../runtime/errors.js';
import { ReadyReason } from '../../runtime/reasons.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { entryPath, type ChildAction, type ChildList, type ChildPlan } from './child-list.js';

/** `spec.records[1] (A www "x")` for a create or update, `record A old "x" (id 7)` for a delete. */
function describeAction(list: ChildList, action: ChildAction): string {
  if (action.op === 'delete') return `${list.what} ${action.label} (id ${action.id})`;
  return `${entryPath(list, action.entry)} (${action.label})`;
}

/** A child call that failed, with the action it was sent for. */
export class ChildCallError extends Error {
  constructor(
    readonly list: ChildList,
    readonly action: ChildAction,
    override readonly cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`${describeAction(list, action)}: ${why}`);
    this.name = 'ChildCallError';
  }
}

/** Listed children another object manages: the parent writes nothing until that is resolved. */
export class ChildConflictError extends Error {
  constructor(
    readonly list: ChildList,
    conflicts: readonly string[],
  ) {
    const { path, what } = list;
    super(
      `cannot manage spec.${path}: ${conflicts.join('; ')}; nothing is written to the ${list.parentWhat} until the entry is removed from spec.${path} or that object no longer manages the ${what}`,
    );
    this.name = 'ChildConflictError';
  }
}

/** Refuses a plan that cannot be applied as the spec says (see the module comment). */
export function refuseUnappliable(list: ChildList, plan: ChildPlan): void {
  const { path, what } = list;
  if (plan.gone.length > 0) {
    const also = plan.conflicts.length > 0 ? `; also ${plan.conflicts.join('; ')}` : '';
    throw new TerminalError(
      ReadyReason.NotFound,
      `cannot manage spec.${path}: ${plan.gone.join('; ')}${also}; an adopted ${what} is never created again: remove the entry from spec.${path} (listed again afterwards, it is created by this object)`,
    );
  }
  if (plan.conflicts.length > 0) throw new ChildConflictError(list, plan.conflicts);
}

/**
 * The spec path of a platform member an error names: the parent's (`parentPath`), else, for an
 * entry's member, the entry the call applied (`spec.records[1].value (Value)`) or the list.
 */
function memberPath(
  list: ChildList,
  parentPath: (apiField: string) => string,
  action?: ChildAction,
): (apiField: string) => string {
  return (apiField) => {
    const member = list.fields.find((f) => f.api === apiField);
    if (member !== undefined && action !== undefined && action.op !== 'delete')
      return `${entryPath(list, action.entry)}.${member.spec} (${apiField})`;
    const path = parentPath(apiField);
    return member === undefined || path !== apiField ? path : `spec.${list.path} (${apiField})`;
  };
}

/**
 * Classifies an error of a parent with a child list: child call failures name their entry,
 * conflicts take the list's reason, everything else as every kind does (`parentPath` maps the
 * parent's own API members to spec paths).
 */
export function classifyChildError(
  list: ChildList,
  err: unknown,
  parentPath: (apiField: string) => string,
): ClassifiedError {
  if (err instanceof ChildConflictError)
    return { class: 'retryable', reason: list.conflictReason, message: err.message };
  if (!(err instanceof ChildCallError))
    return classifyCdnError(err, { specPathForField: memberPath(list, parentPath) });
  const specPathForField = memberPath(list, parentPath, err.action);
  const inner = classifyCdnError(err.cause, { specPathForField });
  return { ...inner, message: `${describeAction(list, err.action)}: ${inner.message}` };
}
