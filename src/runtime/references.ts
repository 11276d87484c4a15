/**
 * Reverse index of `ManagedKind.references`: which managed objects depend on a given Secret,
 * ConfigMap or managed object, so that a change to it re-enqueues the dependents.
 */
import { flatString } from './flat-string.js';
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
  /** Dependents per referenced object, and the one copy of its key every dependent shares. */
  private readonly byRef = new Map<string, { key: string; dependents: Set<string> }>();
  // The key itself when a dependent references one object (almost always: its credentials
  // Secret), an array only for several: one entry per managed object (docs/runtime.md, Memory).
  private readonly byDependent = new Map<string, string | string[]>();

  /** Replaces the references of a dependent. */
  set(dep: Dependent, refs: readonly ObjectReference[]): void {
    this.remove(dep);
    if (refs.length === 0) return;
    // Many objects reference one Secret: each stores the shared key, and its own id flat.
    const id = flatString(`${dep.controller}\u0000${dep.key}`);
    const keys: string[] = [];
    for (const ref of refs) {
      const k = referenceKey(ref);
      let entry = this.byRef.get(k);
      if (!entry) this.byRef.set(k, (entry = { key: flatString(k), dependents: new Set() }));
      entry.dependents.add(id);
      if (!keys.includes(entry.key)) keys.push(entry.key);
    }
    // slice(): an array grown by push keeps spare capacity (17 slots); a copy has none.
    this.byDependent.set(id, keys.length === 1 ? keys[0]! : keys.slice());
  }

  /** Drops a dependent. */
  remove(dep: Dependent): void {
    const id = `${dep.controller}\u0000${dep.key}`;
    const held = this.byDependent.get(id) ?? [];
    for (const k of typeof held === 'string' ? [held] : held) {
      const entry = this.byRef.get(k);
      entry?.dependents.delete(id);
      if (entry?.dependents.size === 0) this.byRef.delete(k);
    }
    this.byDependent.delete(id);
  }

  /** Dependents of a referenced object. */
  dependentsOf(
    ref: Pick<ObjectReference, 'apiVersion' | 'kind' | 'namespace' | 'name'>,
  ): Dependent[] {
    return [...(this.byRef.get(referenceKey(ref))?.dependents ?? [])].map((id) => {
      const [controller, key] = id.split('\u0000') as [string, string];
      return { controller, key };
    });
  }
}
