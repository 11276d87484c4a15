/**
 * Error handling of the ContainerApp kind: platform validation errors of a write carry the
 * field mapping of the body that was sent, so the `Synced` condition names spec paths; values
 * read from Secrets are scrubbed from anything the platform echoes back.
 */
import { CdnApiError, isCdnApiError } from '../../cdn/errors.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { REDACTED } from '../shared/plan.js';

/** A failed write with the mapping from API fields to spec paths for its body. */
export class AppWriteError extends Error {
  constructor(
    readonly apiError: CdnApiError,
    readonly specPathForField: (apiField: string) => string,
  ) {
    super(apiError.message);
    this.name = 'AppWriteError';
  }
}

function scrub(text: string | undefined, secrets: readonly string[]): string | undefined {
  if (text === undefined) return undefined;
  let out = text;
  for (const s of secrets) if (s.length > 0) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * A copy of a CDN error with every occurrence of a secret value replaced, so that a platform
 * message quoting a submitted value cannot leak it into conditions, events or logs.
 */
export function scrubCdnError(err: CdnApiError, secrets: readonly string[]): CdnApiError {
  if (secrets.length === 0) return err;
  const copy = new CdnApiError({
    operation: err.operation,
    kind: err.kind,
    message: scrub(err.message, secrets)!,
    detail: scrub(err.detail, secrets),
    status: err.status,
    errorKey: err.errorKey,
    field: err.field,
    fields: err.fields?.map((f) => ({ field: f.field, message: scrub(f.message, secrets)! })),
    retryAfterMs: err.retryAfterMs,
  });
  copy.stack = scrub(err.stack, secrets);
  return copy;
}

/** Runs a platform write; a CDN error becomes an {@link AppWriteError} (scrubbed, mapped). */
export async function mapWriteErrors<T>(
  write: () => Promise<T>,
  specPathForField: (apiField: string) => string,
  secrets: readonly string[],
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isCdnApiError(err)) {
      throw new AppWriteError(scrubCdnError(err, secrets), specPathForField);
    }
    throw err;
  }
}

/** `ManagedKind.classifyError` of ContainerApp. */
export function classifyContainerAppError(err: unknown): ClassifiedError {
  if (err instanceof AppWriteError) {
    return classifyCdnError(err.apiError, { specPathForField: err.specPathForField });
  }
  return classifyCdnError(err);
}
