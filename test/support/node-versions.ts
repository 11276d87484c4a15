/**
 * The Node.js releases of hack/node-versions (the active LTS the image ships, the oldest
 * supported line, the npm of the local base image), as the shell scripts read them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Versions named in hack/node-versions. */
export interface NodeVersions {
  lts: string;
  oldest: string;
  npm: string;
}

const FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'hack',
  'node-versions',
);

/** Parses hack/node-versions; throws naming the variable that is missing. */
export function readNodeVersions(file = FILE): NodeVersions {
  const vars = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z_]+)=(\S+)\s*$/.exec(line);
    if (m) vars.set(m[1]!, m[2]!);
  }
  const get = (name: string): string => {
    const value = vars.get(name);
    if (!value || !/^\d+\.\d+\.\d+$/.test(value)) {
      throw new Error(`cannot read ${file}: ${name} is not a version (${value ?? 'missing'})`);
    }
    return value;
  };
  return { lts: get('NODE_LTS'), oldest: get('NODE_OLDEST'), npm: get('NPM_VERSION') };
}
