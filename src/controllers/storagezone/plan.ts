/**
 * `cdnctl diff` of a StorageZone manifest: the kit's CRUD planner (read-only observe). A spec
 * that changes what the platform fixes at create time (name, region, tier) is reported as an
 * error with the operator's own message.
 */
import { crudPlanner } from '../kit/crud-plan.js';
import { storageZoneResource } from './index.js';
import type { KindPart } from '../kit/kind-parts.js';

/** See the module comment. */
export const planStorageZone = crudPlanner(storageZoneResource);

/** The kind's `cdnctl diff` planner, under its part's name (kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = planStorageZone;
