/** Installs the repository's CRDs on the e2e apiserver. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/openapi-docs.js';
import { applyCrd } from './kube.js';

/** Applies every CRD in `crds/` and waits until each is Established (the operator syncs all its kinds). */
export async function applyAllCrds(): Promise<void> {
  const dir = join(REPO_ROOT, 'crds');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    const name = /\n {2}name: (\S+)/.exec(text)?.[1];
    if (name) await applyCrd(text, name);
  }
}
