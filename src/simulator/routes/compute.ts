/**
 * The compute document's routes (edge scripts), in one list: scripts, code and releases,
 * variables, secrets. Every operation of the document is simulated.
 */
import type { RouteDef } from '../types.js';
import { COMPUTE_RELEASE_ROUTES } from './compute-releases.js';
import { COMPUTE_SCRIPT_ROUTES } from './compute-scripts.js';
import { COMPUTE_SECRET_ROUTES } from './compute-secrets.js';
import { COMPUTE_VARIABLE_ROUTES } from './compute-variables.js';

/** Edge script routes. */
export const COMPUTE_ROUTES: RouteDef[] = [
  ...COMPUTE_SCRIPT_ROUTES,
  ...COMPUTE_RELEASE_ROUTES,
  ...COMPUTE_VARIABLE_ROUTES,
  ...COMPUTE_SECRET_ROUTES,
];
