/**
 * The committed API model (src/simulator/generated/api-model/) must equal what
 * hack/generate-api-model.ts makes from the official documents. The documents live outside the
 * repository (../shared/reference/openapi beside the package root, or CDN_SIM_OPENAPI_DIR):
 * where they are absent (a plain clone) this test is skipped and says why; nothing else needs
 * them.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { API_MODEL, DOCUMENT_FILES } from '../../../src/simulator/documents/load.js';
import type { Area } from '../../../src/simulator/types.js';
import { describeDrift } from '../../../hack/api-model/drift.js';
import { MODEL_DIR, renderApiModelModule } from '../../../hack/api-model/render.js';
import {
  generateApiModels,
  hasOfficialDocuments,
  officialDocumentsDir,
  PACKAGE_ROOT,
} from '../../../hack/api-model/source.js';

const dir = officialDocumentsDir();
const present = hasOfficialDocuments(dir);
const SHOWN = 15;

function driftReport(area: Area, problems: string[]): string {
  const shown = problems.slice(0, SHOWN).map((p) => `  ${p}`);
  const more = problems.length > SHOWN ? [`  ... and ${problems.length - SHOWN} more`] : [];
  return [
    `${area}: the committed model differs from ${path.join(dir, DOCUMENT_FILES[area])} in ${problems.length} place(s):`,
    ...shown,
    ...more,
  ].join('\n');
}

function firstDifferentLine(a: string, b: string): number {
  const left = a.split('\n');
  const right = b.split('\n');
  const i = left.findIndex((line, n) => line !== right[n]);
  return (i === -1 ? left.length : i) + 1;
}

(present ? test : test.skip)(
  present
    ? 'the committed API model is what make generate makes from the official documents'
    : `API model drift: skipped, the official documents are not at ${dir} (a plain clone has none; set CDN_SIM_OPENAPI_DIR to check)`,
  (t) => {
    const regenerated = generateApiModels(dir);
    const reports: string[] = [];
    for (const [area, model] of Object.entries(regenerated) as [Area, Record<string, unknown>][]) {
      const file = path.join(PACKAGE_ROOT, MODEL_DIR, `${area}.ts`);
      const committed = readFileSync(file, 'utf8');
      const expected = renderApiModelModule(area, DOCUMENT_FILES[area], model);
      if (committed === expected) continue;
      const problems = describeDrift(API_MODEL[area], model);
      reports.push(
        problems.length > 0
          ? driftReport(area, problems)
          : `${area}: ${MODEL_DIR}/${area}.ts differs in its text from line ${firstDifferentLine(committed, expected)} (the model itself is equal)`,
      );
    }
    if (reports.length > 0) {
      t.fail(`${reports.join('\n')}\nRun \`make generate\` and commit the result.`);
    } else {
      t.pass();
    }
  },
);

test('the drift report names every difference by JSON pointer, member order included', (t) => {
  const cases: [string, unknown, unknown, string[]][] = [
    ['equal', { a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, []],
    ['changed', { a: { min: 1 } }, { a: { min: 2 } }, ['/a/min: differs (model: 1, documents: 2)']],
    ['model only', { a: 1, b: 2 }, { a: 1 }, ['/b: in the model only (2)']],
    [
      'documents only',
      { p: {} },
      { p: { 'x/y': true } },
      ['/p/x~1y: in the documents only (true)'],
    ],
    ['order', { a: 1, b: 2 }, { b: 2, a: 1 }, ['/: member order differs']],
    ['array length', { e: [1, 2] }, { e: [1] }, ['/e: differs (model: [1,2], documents: [1])']],
  ];
  for (const [why, model, documents, expected] of cases) {
    t.deepEqual(describeDrift(model, documents), expected, why);
  }
});
