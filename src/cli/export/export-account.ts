/**
 * Reads an account and builds the manifests of `cdnctl export` (docs/export.md). Only reads:
 * each kind's exporter (`src/controllers/<kind>/export.ts`, found through the list of kinds)
 * follows every list to its end, then reads each resource once by id, the way the operator
 * reads it (so the export sees exactly what the operator will compare against). Objects are
 * named in ascending platform id order, so names are stable between runs. Objects too large
 * for client-side `kubectl apply` are noted (apply-size.ts).
 */
import type { CdnClient } from '../../cdn/client.js';
import { clientApplyNotes } from './apply-size.js';
import type { KindModule } from '../../controllers/kind-module.js';
import { KINDS } from '../../controllers/kinds.js';
import { NameAllocator } from '../../controllers/shared/export-names.js';
import type {
  ExportContext,
  ExportOptions,
  ExportResult,
} from '../../controllers/shared/manifest-export.js';

/** The kinds `cdnctl export` can write (those with an exporter), in list order. */
export function exportableKinds(kinds: readonly KindModule[] = KINDS): KindModule[] {
  return kinds.filter((k) => k.exporter !== undefined);
}

/** True when `kind` is asked for, or another asked-for kind needs its resources read first. */
function isNeeded(kind: KindModule, opts: ExportOptions, kinds: readonly KindModule[]): boolean {
  if (opts.kinds.has(kind.kind)) return true;
  return kinds.some((k) => opts.kinds.has(k.kind) && k.exportNeeds?.includes(kind.kind) === true);
}

/** See the module comment. */
export async function exportAccount(
  client: CdnClient,
  opts: ExportOptions,
  kinds: readonly KindModule[] = KINDS,
): Promise<ExportResult> {
  const names = new Map<string, Map<string, string>>();
  const after: Array<() => void | Promise<void>> = [];
  const c: ExportContext = {
    client,
    opts,
    secretNames: new NameAllocator(),
    configMapNames: new NameAllocator(),
    result: { objects: [], secrets: [], notes: [] },
    wants: (kind) => opts.kinds.has(kind),
    names(kind) {
      let byId = names.get(kind);
      if (!byId) names.set(kind, (byId = new Map<string, string>()));
      return byId;
    },
    afterAll: (step) => {
      after.push(step);
    },
  };
  for (const kind of exportableKinds(kinds)) {
    if (!isNeeded(kind, opts, kinds)) continue;
    const exporter = await kind.exporter!();
    await exporter(c);
  }
  for (const step of after) await step();
  c.result.notes.push(...clientApplyNotes(c.result.objects));
  return c.result;
}
