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

type Manifest = { metadata?: { annotations?: Record<string, string> } } & Record<string, unknown>;

/**
 * The bytes the object's annotations take once client-side apply added its own (keys and
 * values): the object as Go's encoding/json writes it, which escapes `<`, `>`, `&` (HTML!) and
 * LS/PS as `\uXXXX`, holds an `annotations` map (empty when there was none) and ends with a
 * newline. Matches the apiserver's count to a few bytes (other control characters differ).
 */
export function lastAppliedBytes(manifest: Manifest): number {
  const annotations = manifest.metadata?.annotations ?? {};
  const json = JSON.stringify({ ...manifest, metadata: { ...manifest.metadata, annotations } });
  const html = json.match(/[<>&]/g)?.length ?? 0;
  const separators = json.match(/[\u2028\u2029]/g)?.length ?? 0;
  const others = Object.entries(annotations).reduce(
    (sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v),
    0,
  );
  const value = Buffer.byteLength(json, 'utf8') + 1 + 5 * html + 3 * separators;
  return others + LAST_APPLIED.length + value;
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
