/**
 * Serializes async work per key (writes to one pull zone, the creates of one account). Calls
 * for different keys run concurrently; calls for the same key run one at a time in call order.
 *
 * A call waits for the earlier holders of its key **outside** the shared capacity its pass
 * holds (common/pass-context.ts `waitOutside`: the platform slot and the pass slot are given
 * back for the wait and taken again before `fn` runs). A holder itself gives its slots back
 * while its own requests wait for the account and takes them again after, so a waiter that
 * kept its slot could hold the very slot the holder needs: with every platform slot of a kind
 * held by creates queued behind one account's create lock, the holder never got one back and
 * every create of the kind stopped for good (seen in the bench's mixed fleet: 32 passes each of
 * StorageZone and DnsZone stuck after 5 creates).
 */
import { waitOutside } from '../../common/pass-context.js';

const tails = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call with the same key has settled. */
export async function withKeyedLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  // The tail never rejects, so one failure does not poison later callers.
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  try {
    await waitOutside(() => previous);
    return await fn();
  } finally {
    done();
    // Drop the entry once nobody queued behind us, so the map does not grow without bound.
    if (tails.get(key) === tail) tails.delete(key);
  }
}
