/** A seeded generator for the queue tests, so that a failing sequence can be replayed. */

/** Returns numbers in [0, 1) from `seed` (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n). */
export function below(random: () => number, n: number): number {
  return Math.floor(random() * n);
}
