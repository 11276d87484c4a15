/**
 * A kind declares its lazy parts by convention (src/controllers/kit/kind-parts.ts): every kind
 * of the list, and the test kind Gadget, loads each part it declares with the part's shape;
 * the loaders import nothing until called, find the part's file beside the calling kind.ts
 * with that file's extension (`.ts` under tsx, `.js` in the build) and refuse a file that
 * does not export the part.
 */
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import type { KindModule } from '../../../../src/controllers/kind-module.js';
import { KINDS } from '../../../../src/controllers/kinds.js';
import { kindParts } from '../../../../src/controllers/kit/kind-parts.js';
import { builtCrd } from '../../../support/crds.js';
import { GADGET } from '../fixtures/gadget/kind.js';

const deps = { apiBaseUrl: 'http://127.0.0.1:1', log: pino({ level: 'silent' }) };

/** The parts `k` declares, each checked for its shape (what its callers rely on). */
async function checkParts(k: KindModule): Promise<string[]> {
  const problems: string[] = [];
  const crd = await builtCrd(k);
  if (crd.spec?.names?.kind !== k.kind) problems.push('schema: no CRD of the kind');
  if (k.controller) {
    const managed = (await k.controller())(deps);
    if (managed.kind !== k.kind) problems.push(`controller: builds ${managed.kind}`);
  }
  if (k.clusterKinds) {
    const watched = (await k.clusterKinds())({ operatorNamespace: 'ops' });
    if (watched[0]?.kind !== k.kind) problems.push('clusterKinds: not the kind first');
  }
  for (const [part, lazy] of [
    ['planner', k.planner],
    ['exporter', k.exporter],
  ] as const) {
    if (lazy && typeof (await lazy()) !== 'function') problems.push(`${part}: not a function`);
  }
  return problems;
}

test('every kind of the list and Gadget load each part they declare, with its shape', async (t) => {
  for (const k of [...KINDS, GADGET]) t.deepEqual(await checkParts(k), [], k.kind);
});

/** A kind folder in a temporary directory: `files` (name → source), ESM. */
async function kindFolder(
  t: import('ava').ExecutionContext,
  files: Record<string, string>,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kind-parts-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'package.json'), '{"type":"module"}');
  for (const [name, source] of Object.entries(files)) await writeFile(join(dir, name), source);
  return dir;
}

/** A part file that counts its loads in `globalThis.partLoads[name]`. */
const counted = (name: string, part: string): string =>
  `(globalThis.partLoads ??= {})[${JSON.stringify(name)}] = ((globalThis.partLoads[${JSON.stringify(name)}] ?? 0) + 1);\n` +
  `export const ${part} = () => ${JSON.stringify(name)};\n`;

const loads = (): Record<string, number> => ({
  ...(globalThis as { partLoads?: Record<string, number> }).partLoads,
});

const CASES = [
  {
    reason: 'the build: a kind.js finds its parts in the conventional .js files',
    kindFile: 'kind.js',
    files: { 'crd.js': counted('crd.js', 'schema'), 'plan.js': counted('plan.js', 'planner') },
    where: {},
    expect: { schema: 'crd.js', planner: 'plan.js' },
  },
  {
    reason: 'tsx: a kind.ts finds them in the .ts files',
    kindFile: 'kind.ts',
    files: { 'crd.ts': counted('crd.ts', 'schema'), 'plan.ts': counted('plan.ts', 'planner') },
    where: {},
    expect: { schema: 'crd.ts', planner: 'plan.ts' },
  },
  {
    reason: 'a part kept elsewhere is looked up in the file the kind names',
    kindFile: 'kind.js',
    files: { 'crd.js': counted('crd.js', 'schema'), 'index.js': counted('index.js', 'planner') },
    where: { planner: 'index' },
    expect: { schema: 'crd.js', planner: 'index.js' },
  },
] as const;

for (const c of CASES) {
  test.serial(`kindParts: ${c.reason}`, async (t) => {
    const dir = await kindFolder(t, c.files);
    const before = loads();
    const parts = kindParts(
      pathToFileURL(join(dir, c.kindFile)).href,
      ['schema', 'planner'],
      c.where,
    );
    t.deepEqual(loads(), before, 'nothing is imported before a part is asked for');
    const schema = (await parts.schema()) as unknown as () => string;
    const planner = (await parts.planner()) as unknown as () => string;
    t.deepEqual({ schema: schema(), planner: planner() }, c.expect);
    t.deepEqual(Object.keys(parts).sort(), ['planner', 'schema'], 'only the declared parts');
  });
}

test('kindParts: a file that does not export the part is refused, naming the file and the part', async (t) => {
  const dir = await kindFolder(t, { 'index.js': 'export const createThingKind = () => ({});\n' });
  const parts = kindParts(pathToFileURL(join(dir, 'kind.js')).href, ['controller']);
  await t.throwsAsync(parts.controller(), {
    message:
      /^cannot load the controller of a kind: file:.*\/index\.js exports no function named controller/,
  });
});
