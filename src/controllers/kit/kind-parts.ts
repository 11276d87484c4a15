/**
 * A kind's lazy parts by convention: each part lives in a conventional file of the kind's folder
 * and is exported there under the part's own name (`crd.ts` exports `schema`, `index.ts`
 * `controller`, `plan.ts` `planner`, `export.ts` `exporter`), so a kind.ts names the parts it
 * has in one line instead of a loader per part:
 *
 *     ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
 *
 * Each loader imports its file on first use only: the KindModule stays light (cdnctl prints its
 * help without loading a controller). The file is found beside the kind.ts that calls this, with
 * that file's own extension, so the same line works under tsx (`.ts`) and in the build (`.js`).
 * Types only are imported: a kind.ts may use it.
 */
import type { KindModule } from '../kind-module.js';

/** The parts a kind may declare by convention, each with the file it lives in by default. */
const CONVENTIONAL_FILES = {
  schema: 'crd',
  controller: 'index',
  clusterKinds: 'index',
  planner: 'plan',
  exporter: 'export',
} as const;

/** A part a kind declares by convention (a key of its KindModule). */
export type PartName = keyof typeof CONVENTIONAL_FILES;

/**
 * The part `P` itself, as its file exports it: `export const planner: KindPart<'planner'> =
 * planDnsZone;` checks the export against the KindModule's type where it is written.
 */
export type KindPart<P extends PartName> = Awaited<ReturnType<NonNullable<KindModule[P]>>>;

/** The loaders of the parts `P`, typed as the KindModule types them. */
export type KindParts<P extends PartName> = { readonly [K in P]-?: NonNullable<KindModule[K]> };

/**
 * Loaders of `parts` for the kind whose kind.ts is `base` (its `import.meta.url`). `files`
 * names, without extension, the file of a part kept elsewhere than its conventional file
 * (`{ planner: 'index' }`).
 */
export function kindParts<P extends PartName>(
  base: string,
  parts: readonly P[],
  files: Partial<Record<P, string>> = {},
): KindParts<P> {
  const extension = /\.[cm]?[jt]s$/.exec(new URL(base).pathname)?.[0] ?? '.js';
  const entries = parts.map((part) => {
    const file = new URL(`./${files[part] ?? CONVENTIONAL_FILES[part]}${extension}`, base).href;
    return [part, () => loadPart(file, part)] as const;
  });
  return Object.fromEntries(entries) as unknown as KindParts<P>;
}

/** The export `part` of the module `file`; throws when the file does not export it. */
async function loadPart(file: string, part: PartName): Promise<unknown> {
  const module = (await import(file)) as Record<string, unknown>;
  const value = module[part];
  if (typeof value !== 'function')
    throw new Error(
      `cannot load the ${part} of a kind: ${file} exports no function named ${part} (docs/kit.md)`,
    );
  return value;
}
