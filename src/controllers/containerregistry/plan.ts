/**
 * `cdnctl diff` of a ContainerRegistry manifest: the kit's CRUD planner (read-only observe).
 * The password is not compared: the platform never returns it and a manifest records no
 * fingerprint, so the plan says nothing about it (the operator does not send it either until
 * the Secret changes after adoption).
 */
import { crudPlanner } from '../kit/crud-plan.js';
import { containerRegistryResource } from './index.js';
import type { KindPart } from '../kit/kind-parts.js';

/** See the module comment (the kind's planner part, kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = crudPlanner(containerRegistryResource);
