/**
 * The `ManagedKind` of a CRUD kind, from data: names, the status id field, the field table (for the spec
 * path of a platform field named in an error), the resource (crud-external.ts) built per
 * connect, the references, the connection Secret.
 */
import type { ClassifiedError } from '../../runtime/errors.js';
import type {
  ConnectContext,
  ConnectionSecret,
  ManagedKind,
  ManagedObject,
  ObjectReference,
} from '../../runtime/types.js';
import { managedNames, type KindNames } from '../kind-names.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { credentialReferences } from '../shared/credentials.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import type { ControllerDeps } from '../shared/deps.js';
import { connector, type Connection } from './connector.js';
import { CrudExternal, type CrudResource } from './crud-external.js';
import { specPathOf, type AnyField } from './fields.js';

/** A CRUD kind as data. */
export interface CrudKind<T extends ManagedObject, R> {
  readonly names: KindNames;
  /** Status member of the id. */
  readonly idField: string;
  readonly fields: readonly AnyField[];
  /** Spec paths of platform members the hooks send (`passwordCredentials.password`). */
  readonly specPaths?: Readonly<Record<string, string>>;
  /** The resource of one connection. */
  resource(conn: Connection, obj: T, ctx: ConnectContext): CrudResource<T, R>;
  /** Objects besides the credentials whose change re-enqueues the object (its Secrets). */
  references?(obj: T): ObjectReference[];
  readonly connectionSecret?: ConnectionSecret<T>;
}

/** The runtime's ManagedKind of `k`. */
export function crudKind<T extends ManagedObject, R>(
  deps: ControllerDeps,
  k: CrudKind<T, R>,
): ManagedKind<T> {
  return {
    ...managedNames(k.names),
    idStatusField: k.idField,
    specExternalId: (obj) => adoptionIdOf(obj.spec),
    connect: connector<T>(deps, (conn, obj, ctx) => new CrudExternal(k.resource(conn, obj, ctx))),
    references: (obj) => [...credentialReferences(obj, deps), ...(k.references?.(obj) ?? [])],
    classifyError: (err: unknown): ClassifiedError =>
      classifyCdnError(err, { specPathForField: (f) => specPathOf(k.fields, f, k.specPaths) }),
    ...(k.connectionSecret ? { connectionSecret: k.connectionSecret } : {}),
  };
}
