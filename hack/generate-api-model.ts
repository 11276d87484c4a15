/**
 * Writes the committed structural API model (src/simulator/generated/api-model/<area>.ts) from
 * the official OpenAPI documents: everything cdn-sim's strict mode, the CRD bounds and the tests
 * read, without prose (hack/api-model/strip.ts). Run by `make generate`; the documents come
 * from ../shared/reference/openapi or CDN_SIM_OPENAPI_DIR and are never copied whole.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DOCUMENT_FILES } from '../src/simulator/documents/load.js';
import type { Area } from '../src/simulator/types.js';
import { MODEL_DIR, renderApiModelModule } from './api-model/render.js';
import { generateApiModels, officialDocumentsDir, PACKAGE_ROOT } from './api-model/source.js';

const dir = officialDocumentsDir();
const models = generateApiModels(dir);
const outDir = path.join(PACKAGE_ROOT, MODEL_DIR);
mkdirSync(outDir, { recursive: true });
for (const [area, model] of Object.entries(models) as [Area, Record<string, unknown>][]) {
  const text = renderApiModelModule(area, DOCUMENT_FILES[area], model);
  writeFileSync(path.join(outDir, `${area}.ts`), text);
  process.stderr.write(`generated ${MODEL_DIR}/${area}.ts (${text.length} bytes) from ${dir}\n`);
}
