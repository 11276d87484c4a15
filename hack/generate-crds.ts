/**
 * Renders CRD YAML files from their TypeScript definitions. Each generator owns one file in
 * crds/; the whole file is generated (marked by its header). `--check` exits 1 when a
 * committed file differs from the generator output instead of writing.
 *
 *   node --import tsx hack/generate-crds.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { buildCdnAccountCrd } from '../src/controllers/cdnaccount/crd.js';
import { buildPullZoneConfigCrd } from '../src/controllers/pullzoneconfig/crd.js';
import { buildContainerAppCrd } from './crds/containerapp.js';
import { buildShieldPolicyCrd } from './crds/shieldpolicy.js';
import { buildStorageZoneCrd } from './crds/storagezone.js';

/** One generated CRD file. Other kinds add an entry here. */
export interface CrdGenerator {
  /** Path relative to the repository root. */
  path: string;
  /** Where the definition lives (named in the header). */
  source: string;
  build(): Record<string, unknown>;
}

export const GENERATORS: readonly CrdGenerator[] = [
  {
    path: 'crds/cdn.operator.io_pullzoneconfigs.yaml',
    source: 'src/controllers/pullzoneconfig/crd.ts (settings from fields.ts)',
    build: buildPullZoneConfigCrd,
  },
  {
    path: 'crds/cdn.operator.io_cdnaccounts.yaml',
    source: 'src/controllers/cdnaccount/crd.ts (spec from shared/account-schema.ts)',
    build: buildCdnAccountCrd,
  },
  {
    path: 'crds/cdn.operator.io_containerapps.yaml',
    source: 'hack/crds/containerapp.ts (bounds from the official Magic Containers document)',
    build: buildContainerAppCrd,
  },
  {
    path: 'crds/cdn.operator.io_shieldpolicies.yaml',
    source: 'hack/crds/shieldpolicy.ts (enums and formats from the official Shield document)',
    build: buildShieldPolicyCrd,
  },
  {
    path: 'crds/cdn.operator.io_storagezones.yaml',
    source: 'hack/crds/storagezone.ts (regions and tiers from the official core document)',
    build: buildStorageZoneCrd,
  },
];

/**
 * YAML that reads the same in YAML 1.1 and 1.2. kubectl and the apiserver read YAML 1.1, where
 * unquoted `Off`, `On`, `yes`, `n`, `012` or `1:20` are booleans or numbers; with the 1.1
 * schema the emitter quotes every string that 1.1 would read as something else.
 */
export function stringifyYaml11Safe(value: unknown): string {
  return stringify(value, { lineWidth: 0, version: '1.1' });
}

/** The file content a generator produces. */
export function renderCrd(gen: CrdGenerator): string {
  const header = [
    '# GENERATED FILE - do not edit by hand.',
    `# Source: ${gen.source}`,
    '# Regenerate: node --import tsx hack/generate-crds.ts',
  ].join('\n');
  return `${header}\n${stringifyYaml11Safe(gen.build())}`;
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function main(): void {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const gen of GENERATORS) {
    const file = join(root, gen.path);
    const content = renderCrd(gen);
    if (!check) {
      writeFileSync(file, content);
      continue;
    }
    if (readOrEmpty(file) !== content) {
      process.stderr.write(`${gen.path} is out of date; run hack/generate-crds.ts\n`);
      stale++;
    }
  }
  if (stale > 0) process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
