/**
 * Per-account index of pull zone names to ids, built from one paged list and shared by every
 * first pass of that account for a short time. A cold start of N PullZoneConfigs then costs a
 * few list pages instead of N name searches before the creates.
 *
 * The index may be stale by up to its TTL. That is safe: a zone missing from it leads to a
 * create that the platform refuses for a taken name (the caller then searches and adopts), and
 * an id found in it is always read back before use.
 */
import type { PullZone } from '../../cdn/types.js';

interface Entry {
  at: number;
  ids: Map<string, number>;
}

/** Default freshness of one account's index. */
export const NAME_INDEX_TTL_MS = 30_000;

/** Name → id per account; concurrent callers share one list. */
export class ZoneNameIndex {
  readonly #entries = new Map<string, Entry>();
  readonly #loading = new Map<string, Promise<Entry>>();

  constructor(
    private readonly ttlMs = NAME_INDEX_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The id of the zone with exactly this name, or undefined when the (fresh) index has none. */
  async idOf(
    accountId: string,
    name: string,
    list: () => Promise<PullZone[]>,
  ): Promise<number | undefined> {
    const entry = await this.#entry(accountId, list);
    return entry.ids.get(name);
  }

  /** Records a zone this operator created or adopted, so the index stays useful until it expires. */
  remember(accountId: string, name: string, id: number): void {
    this.#entries.get(accountId)?.ids.set(name, id);
  }

  /** Drops a name whose id turned out to be gone. */
  forget(accountId: string, name: string): void {
    this.#entries.get(accountId)?.ids.delete(name);
  }

  async #entry(accountId: string, list: () => Promise<PullZone[]>): Promise<Entry> {
    const cached = this.#entries.get(accountId);
    if (cached && this.now() - cached.at < this.ttlMs) return cached;
    let loading = this.#loading.get(accountId);
    if (!loading) {
      loading = this.#load(list).finally(() => this.#loading.delete(accountId));
      this.#loading.set(accountId, loading);
    }
    const entry = await loading;
    this.#entries.set(accountId, entry);
    return entry;
  }

  async #load(list: () => Promise<PullZone[]>): Promise<Entry> {
    const at = this.now();
    const ids = new Map<string, number>();
    for (const zone of await list()) {
      if (typeof zone.Name === 'string' && typeof zone.Id === 'number') ids.set(zone.Name, zone.Id);
    }
    return { at, ids };
  }
}
