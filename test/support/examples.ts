/** The example objects of the operator's kinds (examples/, one file per kind: `KindModule.example`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KindModule } from '../../src/controllers/kind-module.js';
import { exampleKinds } from '../../src/controllers/kinds.js';
import { REPO_ROOT } from './openapi-docs.js';

/** One example object: its kind and name. */
export interface ExampleObject {
  kind: KindModule;
  name: string;
}

/** The objects of each kind of `kinds` in that kind's example file (default: the chart-default ones). */
export function exampleObjects(kinds: readonly KindModule[] = exampleKinds()): ExampleObject[] {
  return kinds.flatMap((kind) => {
    if (!kind.example) return [];
    const text = readFileSync(join(REPO_ROOT, 'examples', kind.example), 'utf8');
    return parseAllDocuments(text, { version: '1.1' })
      .map((d) => d.toJS() as { kind?: string; metadata?: { name?: string } } | null)
      .filter((o) => o?.kind === kind.kind && typeof o.metadata?.name === 'string')
      .map((o) => ({ kind, name: o!.metadata!.name! }));
  });
}
