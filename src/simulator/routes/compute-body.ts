/**
 * Body checks of the compute routes. In strict mode the document gate has already refused a body
 * the compute document does not allow; these checks give the same answers without it
 * (`--no-strict`), so a handler only ever reads members of the right type: 400 `ApiErrorData`
 * naming the member, first problem only.
 */
import { apiError } from '../errors.js';
import type { JsonObject, SimResponse } from '../types.js';

/** What one member must be. */
export interface MemberRule {
  field: string;
  type: 'string' | 'boolean' | 'scriptType';
  required?: boolean;
  /** Least length of a string (when given). */
  min?: number;
  /** Greatest length of a string. */
  max?: number;
}

const SCRIPT_TYPES = [0, 1, 2];

function typeProblem(rule: MemberRule, value: unknown): string | undefined {
  if (rule.type === 'boolean') return typeof value === 'boolean' ? undefined : 'must be a boolean';
  if (rule.type === 'scriptType') {
    return SCRIPT_TYPES.includes(value as number) ? undefined : 'must be one of 0, 1, 2';
  }
  if (typeof value !== 'string') return 'must be a string';
  if (value.length < (rule.min ?? 0)) return `must have at least ${rule.min} character(s)`;
  if (rule.max !== undefined && value.length > rule.max) {
    return `must have at most ${rule.max} characters`;
  }
  return undefined;
}

function memberProblem(rule: MemberRule, value: unknown): SimResponse | undefined {
  if (value === undefined || value === null) {
    return rule.required
      ? apiError(400, 'validation.required', rule.field, `${rule.field} is required`)
      : undefined;
  }
  const why = typeProblem(rule, value);
  return why
    ? apiError(400, 'validation.invalid_value', rule.field, `${rule.field} ${why}`)
    : undefined;
}

/** The first problem of `body` against `rules` (a body that is not an object is one), or none. */
export function bodyProblem(body: unknown, rules: readonly MemberRule[]): SimResponse | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return apiError(400, 'validation.invalid_body', 'body', 'body must be a JSON object');
  }
  for (const rule of rules) {
    const problem = memberProblem(rule, (body as JsonObject)[rule.field]);
    if (problem) return problem;
  }
  return undefined;
}
