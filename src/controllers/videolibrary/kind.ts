/** The VideoLibrary kind: a Stream video library and its API keys (docs/videolibrary.md). */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { VIDEO_LIBRARY_NAMES } from './types.js';

export const VIDEO_LIBRARY: KindModule = {
  ...VIDEO_LIBRARY_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  // It writes its outputs Secret, which the chart allows only with outputs.enabled=true.
  example: 'video/videolibrary.yaml',
  sample: { spec: () => ({}) },
};
