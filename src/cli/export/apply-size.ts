/**
 * Exported objects that client-side `kubectl apply` cannot create: it stores the whole object
 * in the `kubectl.kubernetes.io/last-applied-configuration` annotation, and the apiserver
 * refuses annotations over 256 KiB in total. A large custom page's ConfigMap (up to 1 MiB) can
 * pass that; the export notes such objects, which `kubectl apply --server-side` (no such
 * annotation) or `kubectl create` apply.
 */
import type { ExportedObject } from '../../controllers/shared/manifest-export.js';

/** The apiserver's bound on the keys and values of one object's annotations together. */
export const MAX_ANNOTATION_BYTES = 256 * 1024;

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The bytes the last-applied annotation of `manifest` takes (key and value): the object as
 * Go's encoding/json writes it, which escapes `<`, `>`, `&` (HTML!) and LS/PS as `\uXXXX`, and
 * ends it with a newline. An estimate to a few bytes (other control characters differ).
 */
export function lastAppliedBytes(manifest: unknown): number {
  const json = JSON.stringify(manifest);
  const html = json.match(/[<>&]/g)?.length ?? 0;
  const separators = json.match(/[\u2028\u2029]/g)?.length ?? 0;
  return LAST_APPLIED.length + Buffer.byteLength(json, 'utf8') + 1 + 5 * html + 3 * separators;
}

/** One note per object too large for client-side apply (see the module comment). */
export function clientApplyNotes(objects: readonly ExportedObject[]): string[] {
  const notes: string[] = [];
  for (const o of objects) {
    const bytes = lastAppliedBytes(o.manifest);
    if (bytes <= MAX_ANNOTATION_BYTES) continue;
    notes.push(
      `${o.kind} ${o.name}: too large for client-side kubectl apply (its last-applied-configuration annotation would take about ${bytes} bytes, the apiserver allows ${MAX_ANNOTATION_BYTES}): apply the output with kubectl apply --server-side, or create it with kubectl create -f`,
    );
  }
  return notes;
}
