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
    if (name) await applyCrdOnce(text, name);
  }
}

/**
 * Test files run in parallel and each installs the CRDs; two client-side applies can both
 * see the CRD missing and both create it. The loser's AlreadyExists means the CRD is there:
 * apply again (now an update) so the wait for Established still runs.
 */
async function applyCrdOnce(text: string, name: string): Promise<void> {
  try {
    await applyCrd(text, name);
  } catch (err) {
    if (!/AlreadyExists/.test(String(err))) throw err;
    await applyCrd(text, name);
  }
}
