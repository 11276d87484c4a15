/** The EdgeScript kind: an edge script, its code, releases and rollback (docs/edgescript.md). */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { EDGE_SCRIPT_NAMES } from './types.js';

export const EDGE_SCRIPT: KindModule = {
  ...EDGE_SCRIPT_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  // It takes its code from a ConfigMap the example creates beside it.
  example: 'compute/edgescript.yaml',
  sample: {
    spec: () => ({
      scriptType: 'Middleware',
      code: { inline: 'export default function () {}' },
    }),
  },
};
