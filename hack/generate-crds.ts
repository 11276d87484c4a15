/**
 * Renders one CRD file per kind of the list of kinds (src/controllers/kinds.ts) into crds/,
 * from the kind's own schema (`src/controllers/<kind>/crd.ts`) with bounds read from the
 * official API documents. The whole file is generated (marked by its header). `--check` exits
 * 1 when a committed file differs from the generator output instead of writing.
 *
 *   node --import tsx hack/generate-crds.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { type KindModule } from '../src/controllers/kind-module.js';
import { crdFileOf } from '../src/controllers/kind-names.js';
import { KINDS } from '../src/controllers/kinds.js';
import { buildCrd, type Schema } from '../src/controllers/shared/crd-schema.js';
import { officialDocuments } from './crds/document-bounds.js';

/**
 * YAML that reads the same in YAML 1.1 and 1.2. kubectl and the apiserver read YAML 1.1, where
 * unquoted `Off`, `On`, `yes`, `n`, `012` or `1:20` are booleans or numbers; with the 1.1
 * schema the emitter quotes every string that 1.1 would read as something else.
 */
export function stringifyYaml11Safe(value: unknown): string {
  return stringify(value, { lineWidth: 0, version: '1.1' });
}

/** The CRD object of `kind`. */
export async function crdOf(kind: KindModule): Promise<Schema> {
  const schema = await kind.schema();
  return buildCrd(kind, schema(officialDocuments));
}

/** The file content generated for `kind`: its path (from the root) and text. */
export async function renderCrd(kind: KindModule): Promise<{ path: string; text: string }> {
  const header = [
    '# GENERATED FILE - do not edit by hand.',
    `# Source: src/controllers/${kind.kind.toLowerCase()}/crd.ts`,
    '# Regenerate: node --import tsx hack/generate-crds.ts',
  ].join('\n');
  return { path: crdFileOf(kind), text: `${header}\n${stringifyYaml11Safe(await crdOf(kind))}` };
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const kind of KINDS) {
    const { path, text } = await renderCrd(kind);
    const file = join(root, path);
    if (!check) {
      writeFileSync(file, text);
      continue;
    }
    if (readOrEmpty(file) !== text) {
      process.stderr.write(`${path} is out of date; run hack/generate-crds.ts\n`);
      stale++;
    }
  }
  if (stale > 0) process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
