/**
 * One key of a ConfigMap or Secret of the object's namespace, read through the ConnectContext
 * (cached, watched: a change re-enqueues the object). EdgeScript's code, variables and secrets
 * read theirs as text, VideoLibrary's watermark image as bytes; while the object or its key is
 * missing the pass waits with `ReferenceNotReady`, a message naming the field, the object and
 * the key — never a value.
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
  return valueAt(await read(at.namespace, at.ref.name), at);
}

/** Reads every key of `name` in `namespace` as bytes (undefined: there is none). */
type BytesReader = (
  kind: KeyRef['kind'],
  namespace: string,
  name: string,
) => Promise<Record<string, Uint8Array> | undefined>;

/**
 * The bytes of `at` (a ConfigMap's `binaryData` or `data`, a Secret's `data`), never decoded
 * to text; WaitingError (ReferenceNotReady) while its object or key is missing.
 */
export async function readKeyRefBytes(read: BytesReader, at: KeyRef): Promise<Uint8Array> {
  return valueAt(await read(at.kind, at.namespace, at.ref.name), at);
}

/** The key's value in `data`, or the WaitingError that names what is missing. */
function valueAt<V>(data: Record<string, V> | undefined, at: KeyRef): V {
  const value = data?.[at.ref.key];
  if (value !== undefined) return value;
  const where = `${at.kind} ${at.namespace}/${at.ref.name}`;
  throw new WaitingError(
    ReadyReason.ReferenceNotReady,
    data
      ? `waiting for ${where} to have key ${JSON.stringify(at.ref.key)} (${at.field})`
      : `waiting for ${where} (${at.field}): not found`,
    WAIT_REQUEUE_MS,
  );
}
