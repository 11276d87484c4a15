/**
 * kubectl and the apiserver read YAML 1.1, where unquoted `Off`/`On`/`yes`/`no` are booleans and
 * `012` an octal number. Every shipped CRD (crds/ and the chart and kustomize copies) must read
 * the same under YAML 1.1 as under 1.2, or an enum value becomes unusable.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { stringifyYaml11Safe } from '../../../hack/generate-crds.js';
import { CHART, KUSTOMIZE, ROOT } from '../packaging/tools.js';

const DIRS = [join(ROOT, 'crds'), join(CHART, 'crds'), join(KUSTOMIZE, 'crds')];

for (const dir of DIRS) {
  test(`CRDs in ${relative(ROOT, dir)} read the same in YAML 1.1 (kubectl) and 1.2`, async (t) => {
    const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml'));
    t.true(files.length > 0);
    for (const f of files) {
      const text = await readFile(join(dir, f), 'utf8');
      t.deepEqual(parse(text, { version: '1.1' }), parse(text), `${f} differs under YAML 1.1`);
    }
  });
}

test('the CRD emitter quotes strings YAML 1.1 would read as booleans, numbers or null', (t) => {
  const values = ['Off', 'On', 'yes', 'no', 'y', 'n', '~', 'null', '012', '0x1F', '1:20', '1_000'];
  const text = stringifyYaml11Safe({ enum: values, n: 'n' });
  t.deepEqual(parse(text, { version: '1.1' }), { enum: values, n: 'n' });
  t.deepEqual(parse(text), { enum: values, n: 'n' });
});
