/**
 * One Node.js release everywhere: hack/node-versions (what CI installs, the local base image and
 * the demo) names the active LTS and the oldest supported line; the Dockerfile's default base,
 * the CI workflow's bootstrap Node, package.json's engines and @types/node must agree with it.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readNodeVersions } from '../../support/node-versions.js';
import { ROOT } from './tools.js';

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const major = (version: string): number => Number(version.split('.')[0]);
const versions = readNodeVersions();

test('hack/node-versions: an even (LTS) line for each, the oldest below the active one', (t) => {
  t.is(major(versions.lts) % 2, 0, `${versions.lts} is not an LTS line`);
  t.is(major(versions.oldest) % 2, 0, `${versions.oldest} is not an LTS line`);
  t.true(major(versions.oldest) < major(versions.lts));
});

test('the Dockerfile builds on the official image of the active LTS release', (t) => {
  const arg = /^ARG NODE_IMAGE=(\S+)$/m.exec(read('Dockerfile'))?.[1];
  t.is(arg, `node:${versions.lts}-alpine`);
});

test('the CI workflow bootstraps on the active LTS release', (t) => {
  const setup = /node-version:\s*(\S+)/.exec(read('.github/workflows/ci.yml'))?.[1];
  t.is(setup, versions.lts);
});

test('package.json: engines from the oldest supported line, @types/node of that line', (t) => {
  const pkg = JSON.parse(read('package.json')) as {
    engines: { node: string };
    devDependencies: Record<string, string>;
  };
  t.is(pkg.engines.node, `>=${major(versions.oldest)}`);
  t.regex(pkg.devDependencies['@types/node'] ?? '', new RegExp(`^\\^${major(versions.oldest)}\\.`));
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { version?: string; engines?: { node: string } }>;
  };
  t.is(lock.packages['']?.engines?.node, pkg.engines.node);
  t.is(major(lock.packages['node_modules/@types/node']?.version ?? '0'), major(versions.oldest));
});

test('readNodeVersions names the variable it cannot read', (t) => {
  const file = path.join(ROOT, 'package.json');
  t.throws(() => readNodeVersions(file), { message: /cannot read .*NODE_LTS is not a version/ });
});
