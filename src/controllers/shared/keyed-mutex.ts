/**
 * Serializes async work per key (writes to one pull zone). Calls for
 * different keys run concurrently; calls for the same key run one at a time in call order.
 */
const tails = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call with the same key has settled. */
export async function withKeyedLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  // The tail never rejects, so one failure does not poison later callers.
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    // Drop the entry once nobody queued behind us, so the map does not grow without bound.
    if (tails.get(key) === tail) tails.delete(key);
  }
}
