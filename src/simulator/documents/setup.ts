/**
 * Reads the official documents once at start and builds what the request pipeline needs from
 * them: the live binding (every mode), the compiled strict check (strict mode) and the documents
 * themselves (the 501 routes, the documented response mode).
 */
import type { Logger } from 'pino';
import { CONTRACT_EXCEPTIONS } from '../contract-exceptions.js';
import type { SchemaPatchException } from '../contract-exception-types.js';
import { Binder } from './binding.js';
import { defaultDocumentsDir, loadDocuments, type ApiDocuments } from './load.js';
import { DocumentSchemas, patchDocuments } from './schemas.js';

/** What the simulator derives from the documents; all absent when --no-strict could not read them. */
export interface DocumentSetup {
  documents: ApiDocuments | undefined;
  binder: Binder | undefined;
  /** Present in strict mode. */
  schemas: DocumentSchemas | undefined;
}

const SCHEMA_PATCHES = CONTRACT_EXCEPTIONS.filter(
  (e): e is SchemaPatchException => e.kind === 'schema-patch',
);

/**
 * Strict: the documents must be readable (throws `cannot read the official documents ...`).
 * --no-strict: they are used when readable; without them requests are not bound and documented
 * operations cdn-sim does not simulate answer 404, which is logged once.
 */
export function setUpDocuments(
  strict: boolean,
  dir: string | undefined,
  logger: Logger,
): DocumentSetup {
  let documents: ApiDocuments | undefined;
  try {
    documents = loadDocuments(dir ?? defaultDocumentsDir());
  } catch (err) {
    if (strict) throw err;
    logger.warn(
      { err: (err as Error).message },
      'Cannot read the official documents: requests are not bound like the live platform',
    );
    return { documents: undefined, binder: undefined, schemas: undefined };
  }
  return {
    documents,
    binder: new Binder(patchDocuments(documents, SCHEMA_PATCHES)),
    schemas: strict ? new DocumentSchemas(documents, SCHEMA_PATCHES) : undefined,
  };
}
