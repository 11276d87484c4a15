/**
 * The script's code: inline (`spec.code.inline`) or one key of a ConfigMap of the object's
 * namespace (`spec.code.configMapKeyRef`, read through the ConnectContext's cache, watched: a
 * change re-enqueues the object). The code is compared by its SHA-256 digest, so status keeps a
 * digest, never the code, and an unchanged ConfigMap sends nothing.
 */
import { createHash } from 'node:crypto';
import type { ConnectContext, ObjectReference } from '../../runtime/types.js';
import { readKeyRef } from '../shared/key-ref.js';
import type { EdgeScript } from './types.js';

/** `sha256:` and the hex digest of `code`. */
export function codeHashOf(code: string): string {
  return `sha256:${createHash('sha256').update(code).digest('hex')}`;
}

/** The code's ConfigMap as a reference: a change to it re-enqueues the object. */
export function codeConfigMapReference(obj: EdgeScript): ObjectReference[] {
  const name = obj.spec?.code?.configMapKeyRef?.name;
  if (!name) return [];
  return [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: obj.metadata.namespace, name }];
}

/** The code the spec wants; WaitingError (ReferenceNotReady) while its ConfigMap key is missing. */
export async function readCode(
  obj: EdgeScript,
  ctx: Pick<ConnectContext, 'readConfigMap'>,
): Promise<string> {
  const source = obj.spec?.code;
  if (source?.inline !== undefined) return source.inline;
  const ref = source?.configMapKeyRef;
  if (!ref) throw new Error('cannot read the script code: spec.code names no source');
  return readKeyRef(ctx.readConfigMap, {
    kind: 'ConfigMap',
    namespace: obj.metadata.namespace,
    ref,
    field: 'spec.code.configMapKeyRef',
  });
}
