/**
 * Heap measurement for the soak: heapUsed after a forced full GC (needs `node --expose-gc`)
 * and a least-squares slope.
 */

const gc = (globalThis as { gc?: () => void }).gc;

/** True when the process was started with `--expose-gc`. */
export function canForceGc(): boolean {
  return typeof gc === 'function';
}

/** heapUsed after two forced full collections (the second frees what finalizers released). */
export function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * The smallest of `n` heap readings after forced GCs, `gapMs` apart: work that keeps running
 * (watch sessions, timers) holds a varying amount of transient memory at any one reading; the
 * minimum is what stays.
 */
export async function settledHeap(n = 5, gapMs = 200): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, gapMs));
    min = Math.min(min, heapAfterGc());
  }
  return min;
}

/** Least-squares slope of y over x (0 with fewer than two distinct x). */
export function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}
