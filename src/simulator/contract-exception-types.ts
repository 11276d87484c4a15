/**
 * The shapes of the rows of contract-exceptions.ts, the one table of every place where cdn-sim
 * deliberately differs from the official OpenAPI documents. Kept apart from the table so the
 * code that applies a kind of row (document compiler, response projection, binding) can name
 * the type without importing the whole table.
 */

/** Area of the management API a rule applies to. */
export type ExceptionArea = 'core' | 'mc' | 'shield' | 'compute';

/** Changes one component schema of a document. */
export interface SchemaPatchException {
  kind: 'schema-patch';
  area: ExceptionArea;
  /** Component schema name; created when `define` is set. */
  schema: string;
  /** Copy this component first (used to derive a relaxed variant). */
  define?: string;
  addProperties?: Record<string, unknown>;
  dropRequired?: string[];
  /** Replace a property's schema. */
  setProperties?: Record<string, unknown>;
  /** The only operations (`METHOD /path`) whose bodies see the patched schema. */
  operations: string[];
  /** The line of management-api.md the deviation rests on (this, or `liveEvidence`). */
  contract?: string;
  /**
   * Where the contract is silent: the public client, run against the live API, whose use shows
   * the platform differs from the document (this, or `contract`).
   */
  liveEvidence?: string;
  reason: string;
}

/** Declares the body of a response the document leaves undeclared or declares differently. */
export interface ResponseException {
  kind: 'response';
  area: ExceptionArea;
  /** `*` = any method. */
  method: string;
  /** Path template as written in the contract, e.g. `/pullzone/{id}`; `*` = any route. */
  path: string;
  status: number;
  /** JSON schema of the body (`#/components/schemas/...` refs resolve in the area's document); null = no body. */
  schema: Record<string, unknown> | null;
  reason: string;
}

/**
 * The rules of the live platform's model binding (ASP.NET) that accept requests the documents,
 * read exactly, reject. cdn-sim applies them to every request (documents/binding.ts) and
 * records each use, so its own clients can be held to the exact documents.
 */
export type BindingRule =
  | 'member-case'
  | 'unknown-member'
  | 'null-optional'
  | 'enum-case'
  | 'query-name-case'
  | 'query-unknown'
  | 'query-boolean-case';

/** One binding rule: what the live platform accepts beyond the documents, and why we do too. */
export interface BindingException {
  kind: 'binding';
  rule: BindingRule;
  /** What a request may do that the document, read exactly, does not allow. */
  accepts: string;
  /** What cdn-sim does with it before the handlers and the document check see the request. */
  binds: string;
  reason: string;
}

/** A schema patch, as the document compiler sees it. */
export type SchemaPatchDeviation = SchemaPatchException;

/** One documented difference. */
export type ContractException = SchemaPatchException | ResponseException | BindingException;
