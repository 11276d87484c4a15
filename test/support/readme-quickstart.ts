/**
 * The README's install block (between `<!-- quickstart:begin -->` and `<!-- quickstart:end -->`),
 * read from README.md so that the tests that run it or render its values cannot drift from it.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

/** The shell commands of the block, continuation lines joined, comments and blanks dropped. */
export async function readmeQuickstartSteps(): Promise<string[]> {
  const readme = await readFile(README, 'utf8');
  const block = /<!-- quickstart:begin -->\n```sh\n([\s\S]*?)```\n<!-- quickstart:end -->/.exec(
    readme,
  );
  if (!block) throw new Error('cannot find the quickstart block in README.md');
  return block[1]!
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** The block's `helm install` line, split into words (it uses no quoting). */
export async function readmeHelmInstall(): Promise<string[]> {
  const line = (await readmeQuickstartSteps()).find((s) => s.startsWith('helm install '));
  if (!line) throw new Error('the quickstart block of README.md has no helm install line');
  return line.split(/\s+/);
}
