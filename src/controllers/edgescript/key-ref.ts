/**
 * One key of a ConfigMap or Secret of the object's namespace, read through the ConnectContext
 * (cached, watched: a change re-enqueues the object). The code, the variables and the secrets
 * all read theirs this way; while the object or its key is missing the pass waits with
 * `ReferenceNotReady`, a message naming the field, the object and the key — never a value.
 */
import { WaitingError } from '../../runtime/errors.js';
import { ReadyReason } from '../../runtime/reasons.js';

/** How soon to look again while the object or its key is missing (its watch is sooner). */
const WAIT_REQUEUE_MS = 30_000;

/** Reads the data of `name` in `namespace` (undefined: there is none). */
type Reader = (namespace: string, name: string) => Promise<Record<string, string> | undefined>;

/** Where a value comes from: a ConfigMap or Secret key, and the spec field that names it. */
export interface KeyRef {
  kind: 'ConfigMap' | 'Secret';
  namespace: string;
  ref: { name: string; key: string };
  /** The spec field, as the message shows it (`spec.env[NAME]`). */
  field: string;
}

/** The value of `at`; WaitingError (ReferenceNotReady) while its object or key is missing. */
export async function readKeyRef(read: Reader, at: KeyRef): Promise<string> {
  const where = `${at.kind} ${at.namespace}/${at.ref.name}`;
  const data = await read(at.namespace, at.ref.name);
  const value = data?.[at.ref.key];
  if (value !== undefined) return value;
  throw new WaitingError(
    ReadyReason.ReferenceNotReady,
    data
      ? `waiting for ${where} to have key ${JSON.stringify(at.ref.key)} (${at.field})`
      : `waiting for ${where} (${at.field}): not found`,
    WAIT_REQUEUE_MS,
  );
}
