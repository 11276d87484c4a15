/**
 * Platform ids, parsed once (issue 44, item 4). An id has exactly one spelling: an integer id
 * is a positive safe integer (in a string: decimal digits, no sign, no leading zero, no space);
 * an application id is letters, digits, `-` and `_`. The CRD patterns below refuse every other
 * spelling at apply; this module reads what the apiserver stored, so that the reference checks
 * and the requests use the one value the claim index knows.
 *
 * Another spelling is never guessed into an id: `"03"`, `"+3"`, `" 3"`, `"3.0"` or `"0x3"` may
 * name registry 3 on the platform, or nothing, so an object stored with one before the patterns
 * existed (the apiserver does not validate stored objects again, and keeps an unchanged field on
 * update) is refused `InvalidSpec` before any request ({@link invalidIdError}) instead of being
 * sent as something the claim index does not recognise.
 */
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';

/** An integer id in a string field (an edge rule parameter, a registry id): its only spelling. */
export const INTEGER_ID_PATTERN = '^[1-9][0-9]*$';

/** A Magic Containers application or endpoint id. */
export const APP_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]*$';

/**
 * What a container names as its registry (`imageRegistryId`): a registry id, or the name of one
 * of the platform's public registries (`dockerhub`, `github`), which starts with a letter.
 */
export const REGISTRY_ID_PATTERN = '^([1-9][0-9]*|[A-Za-z][A-Za-z0-9_-]*)$';

const INTEGER_ID = new RegExp(INTEGER_ID_PATTERN);
const APP_ID = new RegExp(APP_ID_PATTERN);
const REGISTRY_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * The integer id `value` holds (a number, or a string of its one spelling), or undefined for
 * anything else: 0, negative, fractional, unsafe, another spelling, not a number.
 */
export function parseIntegerId(value: unknown): number | undefined {
  const n = typeof value === 'string' && INTEGER_ID.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The application (or endpoint) id `value` holds, or undefined when it is not one. */
export function parseAppId(value: unknown): string | undefined {
  return typeof value === 'string' && APP_ID.test(value) ? value : undefined;
}

/** What a container's `imageRegistryId` names. */
export type RegistryName = { id: number } | { publicName: string };

/** The registry `value` names, or undefined when it is neither a registry id nor a name. */
export function parseRegistryId(value: unknown): RegistryName | undefined {
  const id = parseIntegerId(value);
  if (id !== undefined) return { id };
  return typeof value === 'string' && REGISTRY_NAME.test(value) ? { publicName: value } : undefined;
}

/**
 * The terminal error of an id field whose value is not in the platform's form (`expected`:
 * what it must be); names the field and the value (an id is no secret).
 */
export function invalidIdError(field: string, value: unknown, expected: string): TerminalError {
  return new TerminalError(
    SyncedReason.InvalidSpec,
    `cannot use ${field} ${JSON.stringify(value)}: expected ${expected}; nothing is sent to the platform for this object`,
  );
}
