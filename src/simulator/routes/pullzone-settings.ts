/**
 * Validation of the pull zone update model (and the settings part of the add model) against
 * the field table derived from the official document: unknown properties, types, int32 range,
 * the Limits table ranges and the enums. `null` means "leave unchanged" and always passes.
 */
import { SETTINGS_FIELDS } from '../generated/pull-zone-tables.js';
import type { SettingsField } from '../generated/field-spec.js';
import { proseProblem } from './pullzone-prose-rules.js';

const FIELDS = new Map<string, SettingsField>(SETTINGS_FIELDS.map((f) => [f.name, f]));
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** A rejected field: becomes ApiErrorData. */
export interface SettingsProblem {
  errorKey: string;
  field: string;
  message: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isObjectArray = (v: unknown): boolean => Array.isArray(v) && v.every(isPlainObject);
const isStringArray = (v: unknown): boolean =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

const TYPE_CHECKS: Record<SettingsField['kind'], (value: unknown) => boolean> = {
  boolean: (v) => typeof v === 'boolean',
  integer: (v) => Number.isSafeInteger(v),
  enum: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  string: (v) => typeof v === 'string',
  'string[]': isStringArray,
  'object[]': isObjectArray,
};

function typeMatches(field: SettingsField, value: unknown): boolean {
  return TYPE_CHECKS[field.kind](value);
}

function boundsProblem(field: SettingsField, n: number): string | undefined {
  const below = field.min !== undefined && n < field.min;
  const above = field.max !== undefined && n > field.max;
  if (!below && !above) return undefined;
  return `${field.name} must be between ${field.min ?? 'unbounded'} and ${field.max ?? 'unbounded'}, got ${n}`;
}

function rangeProblem(field: SettingsField, n: number): string | undefined {
  if (field.format === 'int32' && (n < INT32_MIN || n > INT32_MAX)) {
    return `${field.name} must be a 32-bit integer, got ${n}`;
  }
  const bounds = boundsProblem(field, n);
  if (bounds) return bounds;
  if (field.enum && !field.enum.includes(n)) {
    return `${field.name} must be one of ${field.enum.join(', ')}, got ${n}`;
  }
  return undefined;
}

function checkField(name: string, value: unknown): SettingsProblem | undefined {
  const field = FIELDS.get(name);
  if (!field) {
    return {
      errorKey: 'validation.unknown_property',
      field: name,
      message: `${name} is not a property of the pull zone model`,
    };
  }
  if (value === null) return undefined;
  if (!typeMatches(field, value)) {
    return {
      errorKey: 'validation.invalid_type',
      field: name,
      message: `${name} must be of type ${field.kind}, got ${JSON.stringify(value)}`,
    };
  }
  const problem =
    typeof value === 'number'
      ? (rangeProblem(field, value) ?? proseProblem(name, value))
      : undefined;
  return problem
    ? { errorKey: 'validation.out_of_range', field: name, message: problem }
    : undefined;
}

/** First problem of a settings body, or undefined when every property is acceptable. */
export function validateSettings(
  body: unknown,
  extraAllowed: readonly string[] = [],
): SettingsProblem | undefined {
  if (!isPlainObject(body)) {
    return {
      errorKey: 'validation.invalid_body',
      field: '',
      message: 'body must be a JSON object',
    };
  }
  for (const [name, value] of Object.entries(body)) {
    if (extraAllowed.includes(name)) continue;
    const problem = checkField(name, value);
    if (problem) return problem;
  }
  return undefined;
}
