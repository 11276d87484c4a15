/**
 * Reverse index of `ManagedKind.references`: which managed objects depend on a given Secret,
 * ConfigMap or managed object, so that a change to it re-enqueues the dependents.
 */
import type { ObjectReference } from './types.js';

/** Identity of a referenced object: group (not version), kind, namespace, name. */
export function referenceKey(
  ref: Pick<ObjectReference, 'apiVersion' | 'kind' | 'namespace' | 'name'>,
): string {
  const slash = ref.apiVersion.lastIndexOf('/');
  const group = slash >= 0 ? ref.apiVersion.slice(0, slash) : '';
  return `${group}|${ref.kind}|${ref.namespace}|${ref.name}`;
}

/** A dependent: controller name and object key. */
export interface Dependent {
  controller: string;
  key: string;
}

/** See the module comment. */
export class ReferenceIndex {
  private readonly byRef = new Map<string, Set<string>>();
  private readonly byDependent = new Map<string, string[]>();

  /** Replaces the references of a dependent. */
  set(dep: Dependent, refs: readonly ObjectReference[]): void {
    this.remove(dep);
    const id = `${dep.controller}\u0000${dep.key}`;
    const keys = refs.map(referenceKey);
    if (keys.length === 0) return;
    this.byDependent.set(id, keys);
    for (const k of keys) {
      let set = this.byRef.get(k);
      if (!set) this.byRef.set(k, (set = new Set()));
      set.add(id);
    }
  }

  /** Drops a dependent. */
  remove(dep: Dependent): void {
    const id = `${dep.controller}\u0000${dep.key}`;
    for (const k of this.byDependent.get(id) ?? []) {
      const set = this.byRef.get(k);
      set?.delete(id);
      if (set?.size === 0) this.byRef.delete(k);
    }
    this.byDependent.delete(id);
  }

  /** Dependents of a referenced object. */
  dependentsOf(
    ref: Pick<ObjectReference, 'apiVersion' | 'kind' | 'namespace' | 'name'>,
  ): Dependent[] {
    return [...(this.byRef.get(referenceKey(ref)) ?? [])].map((id) => {
      const [controller, key] = id.split('\u0000') as [string, string];
      return { controller, key };
    });
  }
}
