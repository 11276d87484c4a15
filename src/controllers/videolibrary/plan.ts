/**
 * `cdnctl diff` of a VideoLibrary manifest: the kit's CRUD planner (read-only observe). The
 * API keys never reach the plan: a pending key reset shows as its annotation value.
 */
import { crudPlanner } from '../kit/crud-plan.js';
import { videoLibraryResource } from './index.js';
import type { KindPart } from '../kit/kind-parts.js';

/** See the module comment. */
export const planVideoLibrary = crudPlanner(videoLibraryResource);

/** The kind's `cdnctl diff` planner, under its part's name (kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = planVideoLibrary;
