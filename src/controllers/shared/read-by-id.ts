/**
 * Reading a managed resource by the id an object holds, the rule every kind follows: a resource
 * that is gone is created again when the object created it, but an id adopted from the spec
 * never leads to a create (terminal NotFound), and while the object is being deleted gone is
 * simply gone.
 */
import { isCdnApiError } from '../../cdn/errors.js';
import { TerminalError } from '../../runtime/errors.js';

/** Reason of the terminal error for an adopted id (or name) that does not exist. */
export const NotFound = 'NotFound';

/** True for the platform's "no such resource" answer. */
export function isNotFound(err: unknown): boolean {
  return isCdnApiError(err) && err.kind === 'notFound';
}

/** What {@link readById} needs to know besides the read. */
export interface ReadByIdOptions {
  externalId: string;
  /** The spec field holding an adopted id (`spec.ruleId`) when the spec sets it. */
  adoptedField: string | undefined;
  deleting: boolean;
  /** `custom WAF rule`, for the message. */
  what: string;
}

/** The resource, or undefined when it is gone (see the module comment). */
export async function readById<T>(
  read: () => Promise<T>,
  o: ReadByIdOptions,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  if (o.adoptedField === undefined || o.deleting) return undefined;
  throw new TerminalError(
    NotFound,
    `cannot observe ${o.what} ${o.externalId} (${o.adoptedField}): it does not exist`,
  );
}
