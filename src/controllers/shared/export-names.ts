/**
 * Kubernetes object names derived from platform names: lowercase DNS labels (at most 63
 * characters of `a-z`, `0-9` and `-`, starting and ending with a letter or digit), unique within
 * one kind. Callers assign names in ascending platform id order, so the same account always
 * yields the same names: the first resource keeps the plain name, a later one whose name
 * collides gets `-<id>` appended.
 */

const MAX_LABEL = 63;

/** `name` as a DNS label, or `fallback` when nothing usable is left. */
export function toDnsLabel(name: string, fallback: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, MAX_LABEL)
    .replace(/^-+|-+$/g, '');
  return cleaned === '' ? fallback : cleaned;
}

function withSuffix(base: string, suffix: string): string {
  const head = base.slice(0, MAX_LABEL - suffix.length - 1).replace(/-+$/, '');
  return head === '' ? suffix : `${head}-${suffix}`;
}

/** Hands out unique names for one kind (see the module comment). */
export class NameAllocator {
  private readonly taken = new Set<string>();

  /** A unique label for the resource with platform name `name` and id `id`. */
  allocate(name: string, id: string | number, fallbackPrefix: string): string {
    const idText = String(id)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '');
    const base = toDnsLabel(name, toDnsLabel(`${fallbackPrefix}-${idText}`, fallbackPrefix));
    let candidate = base;
    for (let n = 2; this.taken.has(candidate); n++) {
      candidate = withSuffix(base, n === 2 ? idText : `${idText}-${n}`);
    }
    this.taken.add(candidate);
    return candidate;
  }
}
