/** The EdgeScript kind: an edge script, its code, releases and rollback (docs/edgescript.md). */
import type { KindModule } from '../kind-module.js';
import { EDGE_SCRIPT_NAMES } from './types.js';

export const EDGE_SCRIPT: KindModule = {
  ...EDGE_SCRIPT_NAMES,
  schema: async () => (await import('./crd.js')).edgeScriptSchema,
  controller: async () => (await import('./index.js')).createEdgeScriptKind,
  planner: async () => (await import('./plan.js')).planEdgeScript,
  exporter: async () => (await import('./export.js')).exportEdgeScripts,
  // It takes its code from a ConfigMap the example creates beside it.
  example: 'compute/edgescript.yaml',
  sample: {
    spec: () => ({
      scriptType: 'Middleware',
      code: { inline: 'export default function () {}' },
    }),
  },
};
