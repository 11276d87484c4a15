/**
 * The layering of src/ is enforced by lint (eslint-layers.js): each case is an import one layer
 * must not make, linted as if it were in that layer's folder, and one it may make.
 */
import test from 'ava';
import { ESLint } from 'eslint';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';
// @ts-expect-error -- a plain ESM config module without types
import { layerRules } from '../../../eslint-layers.js';
import { ROOT } from '../packaging/tools.js';

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
    ...(layerRules as ESLint.Options['overrideConfig'][]),
  ] as ESLint.Options['overrideConfig'],
});

async function violations(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const REFUSED: Array<[string, string, string]> = [
  ['src/runtime/reconciler.ts', "import '../cdn/client.js';", 'runtime -> cdn'],
  ['src/runtime/reconciler.ts', "import '../controllers/kinds.js';", 'runtime -> controllers'],
  ['src/runtime/reconciler.ts', "import { X } from '../config.js';", 'runtime -> config'],
  [
    'src/cdn/client.ts',
    "import { KubeConfig } from '@kubernetes/client-node';",
    'cdn -> Kubernetes',
  ],
  ['src/cdn/client.ts', "import '../runtime/kube-client.js';", 'cdn -> runtime'],
  ['src/cdn/client.ts', "import '../runtime/workqueue.js';", 'cdn -> runtime (any module)'],
  ['src/common/timers.ts', "import '../runtime/types.js';", 'common -> runtime'],
  ['src/common/timers.ts', "import '../cdn/client.js';", 'common -> cdn'],
  ['src/cdn/client.ts', "import '../controllers/kinds.js';", 'cdn -> controllers'],
  ['src/controllers/storagezone/index.ts', "import '../../cli/run.js';", 'controllers -> cli'],
  [
    'src/controllers/shared/deps.ts',
    "import '../../simulator/state.js';",
    'controllers -> cdn-sim',
  ],
  ['src/cli/run.ts', "import '../simulator/server.js';", 'cli -> cdn-sim'],
  // A kind imports only the kit, shared/, its family and other kinds' types.js (issue 43).
  [
    'src/controllers/storagezone/index.ts',
    "import '../containerapp/external.js';",
    'kind -> another kind (not its types)',
  ],
  [
    'src/controllers/containerapp/index.ts',
    "import { X } from '../pullzoneconfig/fields.js';",
    'kind -> another kind (a named import of its fields)',
  ],
  [
    'src/controllers/shieldpolicy/index.ts',
    "import '../dnszone/records.js';",
    'shield family -> DNS family',
  ],
  [
    'src/controllers/shared/credentials.ts',
    "import '../cdnaccount/types.js';",
    'shared -> a kind (even its types)',
  ],
  ['src/controllers/kit/identity.ts', "import '../storagezone/types.js';", 'kit -> a kind'],
  [
    'src/controllers/storagezone/index.ts',
    "import '../../cli/run.js';",
    'a kind folder keeps the layer rule',
  ],
  ['src/simulator/server.ts', "import '../runtime/types.js';", 'cdn-sim -> runtime'],
];

for (const [file, source, what] of REFUSED) {
  test(`refused: ${what}`, async (t) => {
    const found = await violations(file, source);
    t.is(found.length, 1, found.join('\n'));
    t.regex(found[0] ?? '', /^no-restricted-imports: .*Layout/);
  });
}

const ALLOWED: Array<[string, string, string]> = [
  [
    'src/controllers/storagezone/index.ts',
    "import '../../runtime/types.js';",
    'controllers -> runtime',
  ],
  ['src/controllers/storagezone/index.ts', "import '../../cdn/client.js';", 'controllers -> cdn'],
  ['src/cli/run.ts', "import '../controllers/kinds.js';", 'cli -> controllers'],
  [
    'src/controllers/containerapp/references.ts',
    "import '../containerregistry/types.js';",
    "kind -> another kind's types",
  ],
  [
    'src/controllers/dnsrecord/claims.ts',
    "import '../dnszone/record-sweep.js';",
    'kind -> its family (DNS)',
  ],
  [
    'src/controllers/shieldaccesslist/index.ts',
    "import '../shieldrule-common/zone.js';",
    'kind -> its family (shield)',
  ],
  ['src/controllers/storagezone/index.ts', "import '../kit/identity.js';", 'kind -> kit'],
  ['src/controllers/storagezone/index.ts', "import '../shared/deps.js';", 'kind -> shared'],
  ['src/runtime/reasons.ts', "import '../api-group.js';", 'runtime -> the API group leaf'],
  ['src/cdn/client.ts', "import '../common/timers.js';", 'cdn -> common'],
  ['src/runtime/workqueue.ts', "import '../common/fair-queue.js';", 'runtime -> common'],
];

for (const [file, source, what] of ALLOWED) {
  test(`allowed: ${what}`, async (t) => {
    t.deepEqual(await violations(file, source), []);
  });
}
