/**
 * Checks for the small core request models (Hostname, BlockedIp, ForceSSL, ...): required
 * properties, types, minimum length 1 for strings, enums, no extra properties. Returns the
 * first problem as ApiErrorData parts.
 */
import type { SettingsProblem } from './pullzone-settings.js';

/** Type of one property of a small model. */
export type PropSpec =
  | { type: 'string'; required: boolean }
  | { type: 'boolean'; required: boolean }
  | { type: 'enum'; required: boolean; values: number[] };

function typeProblem(name: string, spec: PropSpec, value: unknown): string | undefined {
  if (spec.type === 'string') {
    if (typeof value !== 'string') return `${name} must be a string`;
    return value.length < 1 ? `${name} must have a minimum length of 1` : undefined;
  }
  if (spec.type === 'boolean')
    return typeof value === 'boolean' ? undefined : `${name} must be a boolean`;
  return typeof value === 'number' && spec.values.includes(value)
    ? undefined
    : `${name} must be one of ${spec.values.join(', ')}`;
}

function propertyProblem(
  name: string,
  spec: PropSpec,
  value: unknown,
): SettingsProblem | undefined {
  if (value === undefined || value === null) {
    return spec.required
      ? { errorKey: 'validation.required', field: name, message: `${name} is required` }
      : undefined;
  }
  const message = typeProblem(name, spec, value);
  return message ? { errorKey: 'validation.invalid_value', field: name, message } : undefined;
}

/** First problem of `body` against `model`, or undefined. */
export function checkModel(
  body: unknown,
  model: Record<string, PropSpec>,
): SettingsProblem | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      errorKey: 'validation.invalid_body',
      field: '',
      message: 'body must be a JSON object',
    };
  }
  const obj = body as Record<string, unknown>;
  const unknown = Object.keys(obj).find((k) => !(k in model));
  if (unknown !== undefined) {
    return {
      errorKey: 'validation.unknown_property',
      field: unknown,
      message: `${unknown} is not a property of this model`,
    };
  }
  for (const [name, spec] of Object.entries(model)) {
    const problem = propertyProblem(name, spec, obj[name]);
    if (problem) return problem;
  }
  return undefined;
}

/** `{ Hostname }` model. */
export const HOSTNAME_MODEL: Record<string, PropSpec> = {
  Hostname: { type: 'string', required: true },
};

/** `{ BlockedIp }` model. */
export const BLOCKED_IP_MODEL: Record<string, PropSpec> = {
  BlockedIp: { type: 'string', required: true },
};
