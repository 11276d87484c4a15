/**
 * The shield fleet cache: one view per account of `GET /shield/shield-zones` (every page),
 * keyed by pull zone id. The interface contract says the single-zone GET omits the list-only
 * members (WAF execution mode, body limit actions, plan type, DDoS sensitivity and execution
 * mode); the official document declares them on it too. Reading them from the list is right
 * under either reading; reading it once per account and poll interval costs N/pageSize list
 * calls for N policies instead of N.
 *
 * - A view is reused while younger than the caller's poll interval; concurrent callers share
 *   one refresh (single flight).
 * - Writes made by this operator are written through (`remember`), so the next observe sees
 *   the values just sent and does not PATCH again; a write-through newer than a refresh that
 *   was already running when it happened survives that refresh.
 * - A zone missing from a fresh view (created elsewhere since) triggers a refresh only if the
 *   view is older than `minRefreshMs`, so a burst of new zones costs one extra list pass.
 */
import type { WireZone } from './mapping.js';

/** Lists every shield zone of the account (`CdnClient.listAllShieldZones`). */
export type ListAllZones = () => Promise<WireZone[]>;

interface Written {
  values: WireZone;
  at: number;
}

interface AccountView {
  zones: Map<number, WireZone>;
  fetchedAt: number;
  /** Start time of the refresh that produced `zones`. */
  written: Map<number, Written>;
  inflight?: Promise<void>;
}

/** Options of {@link ShieldFleetCache}. */
export interface FleetCacheOptions {
  now?: () => number;
  /** Floor between refreshes forced by a zone missing from the view (default 30 s). */
  minRefreshMs?: number;
}

/** See the module comment. */
export class ShieldFleetCache {
  private readonly views = new Map<string, AccountView>();
  private readonly now: () => number;
  private readonly minRefreshMs: number;
  /** List passes made (for tests and debug logs). */
  refreshes = 0;

  constructor(options: FleetCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.minRefreshMs = options.minRefreshMs ?? 30_000;
  }

  /**
   * The list form of the shield zone of `pullZoneId` (with this operator's later writes
   * applied), refreshing the account's view when it is older than `maxAgeMs`. Undefined when
   * the list does not show the zone.
   */
  async lookup(
    account: string,
    list: ListAllZones,
    pullZoneId: number,
    maxAgeMs: number,
  ): Promise<WireZone | undefined> {
    const view = this.viewOf(account);
    const age = this.now() - view.fetchedAt;
    const missing = !view.zones.has(pullZoneId) && !view.written.has(pullZoneId);
    if (age >= maxAgeMs || (missing && age >= this.minRefreshMs)) await this.refresh(view, list);
    return this.read(view, pullZoneId);
  }

  /** Records values this operator just wrote to the zone of `pullZoneId`. */
  remember(account: string, pullZoneId: number, values: WireZone): void {
    const view = this.viewOf(account);
    const prev = view.written.get(pullZoneId);
    view.written.set(pullZoneId, { values: { ...prev?.values, ...values }, at: this.now() });
  }

  /** Drops everything known about one account (e.g. after an authorization failure). */
  forget(account: string): void {
    this.views.delete(account);
  }

  private viewOf(account: string): AccountView {
    let view = this.views.get(account);
    if (!view) {
      view = { zones: new Map(), fetchedAt: -Infinity, written: new Map() };
      this.views.set(account, view);
    }
    return view;
  }

  private read(view: AccountView, pullZoneId: number): WireZone | undefined {
    const listed = view.zones.get(pullZoneId);
    const written = view.written.get(pullZoneId);
    if (!listed && !written) return undefined;
    return { ...listed, ...written?.values };
  }

  private refresh(view: AccountView, list: ListAllZones): Promise<void> {
    if (view.inflight) return view.inflight;
    const startedAt = this.now();
    this.refreshes++;
    const run = list()
      .then((zones) => {
        const map = new Map<number, WireZone>();
        for (const z of zones) {
          if (typeof z.pullZoneId === 'number') map.set(z.pullZoneId, z);
        }
        view.zones = map;
        view.fetchedAt = this.now();
        // Writes older than this listing are now reflected by it (or were changed since).
        for (const [id, w] of view.written) if (w.at < startedAt) view.written.delete(id);
      })
      .finally(() => {
        view.inflight = undefined;
      });
    view.inflight = run;
    return run;
  }
}
