/**
 * What every kind's external client asks of a platform answer and an object on the way out:
 * a 404 of the CDN client, an object being deleted, and a delete for which "already gone" is
 * success.
 */
import { isCdnApiError } from '../../cdn/errors.js';

/** True once Kubernetes has marked the object for deletion (the runtime's own test). */
export { isDeleting } from '../../runtime/finalizer.js';

/** True for the CDN client's "not found" (a 404 of the platform). */
export function isNotFound(err: unknown): boolean {
  return isCdnApiError(err) && err.kind === 'notFound';
}

/** Runs a platform delete; a resource that is already gone is success (answers false). */
export async function deleteIgnoringNotFound(remove: () => Promise<void>): Promise<boolean> {
  try {
    await remove();
    return true;
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return false;
  }
}

/** The answer of `read`, or undefined when the platform says the resource is gone. */
export async function readUnlessGone<R>(read: () => Promise<R>): Promise<R | undefined> {
  try {
    return await read();
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return undefined;
  }
}
