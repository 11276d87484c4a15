/**
 * The reverse of mapping.ts for `cdnctl export`: the ShieldPolicy spec of a live shield zone,
 * read through the same field table (fields.ts), so `diffZone(toDesiredWire(spec), live)` is
 * empty for every exported field (tested in reverse-mapping.test.ts). Fields the zone does not
 * return, and enum numbers outside the known names, are left out (unmanaged).
 */
import { FIELDS, type FieldDef } from './fields.js';
import type { WireZone } from './mapping.js';
import type { ShieldPolicySpec } from './types.js';

function specValue(f: FieldDef, live: unknown): unknown {
  if (live === undefined || live === null) return undefined;
  if (f.enumTable) return f.enumTable.fromWire(live);
  if (f.compare === 'engineConfig' && Array.isArray(live)) {
    return live.map((e: { name?: unknown; valueEncoded?: unknown }) => ({
      name: typeof e.name === 'string' ? e.name : '',
      valueEncoded: typeof e.valueEncoded === 'string' ? e.valueEncoded : '',
    }));
  }
  if (Array.isArray(live)) return [...(live as unknown[])];
  return live;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const [head, ...rest] = path.split('.');
  if (!head) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const child = (target[head] ?? {}) as Record<string, unknown>;
  target[head] = child;
  setPath(child, rest.join('.'), value);
}

/** The spec members of every field the live zone shows (see the module comment). */
export function specFromLiveZone(live: WireZone): ShieldPolicySpec {
  const spec: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const value = specValue(f, live[f.wire]);
    if (value !== undefined) setPath(spec, f.specPath, value);
  }
  return spec;
}
