/**
 * One lane of the work queue, shared fairly between namespaces: keys wait per namespace and
 * namespaces take turns (round robin), so a tenant with thousands of waiting keys delays
 * another tenant's key by at most one key per waiting namespace, not by its whole backlog.
 * Keys are `namespace/name`; within a namespace they keep their order of arrival.
 */

function namespaceOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/** See the module comment. */
export class FairLane {
  private readonly byNamespace = new Map<string, Set<string>>();
  /** Namespaces with waiting keys, in turn order (a Set: moving one to the end is O(1)). */
  private readonly turns = new Set<string>();
  private count = 0;

  /** Keys waiting. */
  get size(): number {
    return this.count;
  }

  /** Adds `key` (no-op when it waits already). */
  add(key: string): void {
    const ns = namespaceOf(key);
    let keys = this.byNamespace.get(ns);
    if (!keys) {
      keys = new Set();
      this.byNamespace.set(ns, keys);
      this.turns.add(ns);
    }
    if (keys.has(key)) return;
    keys.add(key);
    this.count++;
  }

  /** True when `key` waits here. */
  has(key: string): boolean {
    return this.byNamespace.get(namespaceOf(key))?.has(key) ?? false;
  }

  /** Removes `key`; true when it was waiting. */
  delete(key: string): boolean {
    const ns = namespaceOf(key);
    const keys = this.byNamespace.get(ns);
    if (!keys?.delete(key)) return false;
    this.count--;
    if (keys.size === 0) this.dropNamespace(ns);
    return true;
  }

  /** The next key: the first of the namespace whose turn it is; that namespace goes last. */
  shift(): string | undefined {
    const ns = this.turns.values().next();
    if (ns.done) return undefined;
    const keys = this.byNamespace.get(ns.value);
    const first = keys?.values().next();
    if (!keys || !first || first.done) {
      this.dropNamespace(ns.value);
      return this.shift();
    }
    keys.delete(first.value);
    this.count--;
    this.turns.delete(ns.value);
    if (keys.size > 0) this.turns.add(ns.value);
    else this.byNamespace.delete(ns.value);
    return first.value;
  }

  private dropNamespace(ns: string): void {
    this.byNamespace.delete(ns);
    this.turns.delete(ns);
  }
}
