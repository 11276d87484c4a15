/**
 * An external client that sees every object through `map` before observe, create and update:
 * how a reference resolved at connect time (`storageZoneRef`, the script refs) becomes the
 * settings and parameters it stands for, so that the diff, the create body and the plan treat
 * them like any other. Deletion sees the object as stored (it never depends on a reference);
 * the account, the claims and the observation bookkeeping are the wrapped client's.
 */
import type { ExternalClient, ExternalContext, Observation } from '../../runtime/types.js';
import type { PullZoneConfig } from './types.js';

/** `inner` seeing objects through `map`; `inner` itself without one. */
export function withMappedObject<S>(
  inner: ExternalClient<PullZoneConfig, S>,
  map: ((obj: PullZoneConfig) => PullZoneConfig) | undefined,
): ExternalClient<PullZoneConfig, S> {
  if (!map) return inner;
  return {
    get account() {
      return inner.account;
    },
    get claims() {
      return inner.claims;
    },
    observe: (obj: PullZoneConfig, ctx: ExternalContext): Promise<Observation<S>> =>
      inner.observe(map(obj), ctx),
    create: (obj, ctx) => inner.create(map(obj), ctx),
    update: (obj, obs, ctx) => inner.update(map(obj), obs, ctx),
    delete: (obj, ctx, obs) => inner.delete(obj, ctx, obs),
  };
}
