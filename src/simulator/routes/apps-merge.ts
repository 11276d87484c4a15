/**
 * Builds the "draft" (request-shaped full configuration) of an application for create, replace
 * (PUT) and JSON Merge Patch (PATCH). Arrays of containers, volumes and endpoints follow the
 * contract: an item with a matching `id` is updated (PATCH: merged; PUT: replaced, keeping its
 * id), an item without `id` is new, an item left out is deleted. An `id` that matches nothing
 * is a validation error.
 *
 * PUT: the documented request models of volumes and endpoints have no `id` (the contract's id
 * rule is stated for PATCH only), so on PUT an item without `id` replaces the existing item of
 * the same name (volumes and containers by `name`, endpoints by `displayName`) and keeps its
 * id — a replacement does not recreate a volume whose name it still lists.
 */
import type { FieldError } from '../errors.js';
import type { StoredApp } from '../state.js';
import type { JsonObject } from '../types.js';

type Mode = 'create' | 'replace' | 'patch';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7396 JSON Merge Patch of plain objects: null removes, objects merge, the rest replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const out: JsonObject = isObject(target) ? structuredClone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

interface IdMergeContext {
  mode: Mode;
  path: string;
  errors: FieldError[];
  /** The member naming an item (`name`, `displayName`): PUT keeps the id of a same-named item. */
  key: string;
}

function sameNamed(
  existing: readonly JsonObject[],
  item: JsonObject,
  key: string,
): JsonObject | undefined {
  const name = item[key];
  return name === undefined ? undefined : existing.find((e) => e[key] === name);
}

type ItemMerger = (existing: JsonObject, item: JsonObject, path: string) => JsonObject;

function mergeById(
  existing: readonly JsonObject[],
  items: readonly JsonObject[],
  ctx: IdMergeContext,
  mergeItem: ItemMerger,
): JsonObject[] {
  const out: JsonObject[] = [];
  items.forEach((item, i) => {
    const path = `${ctx.path}[${i}]`;
    if (item.id === undefined || item.id === null) {
      const { id: _id, ...rest } = item;
      const named = ctx.mode === 'replace' ? sameNamed(existing, item, ctx.key) : undefined;
      out.push(named ? mergeItem(named, { ...rest, id: named.id }, path) : rest);
      return;
    }
    const found = ctx.mode === 'create' ? undefined : existing.find((e) => e.id === item.id);
    if (!found) {
      ctx.errors.push({
        field: `${path}.id`,
        message: `no item with id ${JSON.stringify(item.id)} exists`,
      });
      return;
    }
    out.push(mergeItem(found, item, path));
  });
  return out;
}

/**
 * PATCH merges; PUT replaces, except that an item naming no type (neither `cdn` nor `anycast`)
 * keeps an InternalIP endpoint's (the request cannot describe one, see endpointDraft).
 */
function endpointMerger(mode: Mode): ItemMerger {
  return (existing, item) => {
    if (mode === 'patch') return mergePatch(existing, item) as JsonObject;
    const untyped = item.cdn == null && item.anycast == null;
    return untyped && existing.internalIp != null
      ? { ...item, internalIp: existing.internalIp }
      : item;
  };
}

function containerMerger(mode: Mode, errors: FieldError[]): ItemMerger {
  return (existing, item, path) => {
    const { endpoints, ...rest } = item;
    const merged = (mode === 'patch' ? mergePatch(existing, rest) : { ...rest }) as JsonObject;
    const previous = (existing.endpoints as JsonObject[] | undefined) ?? [];
    if (endpoints !== undefined && endpoints !== null) {
      const ctx = { mode, path: `${path}.endpoints`, errors, key: 'displayName' };
      merged.endpoints = mergeById(previous, endpoints as JsonObject[], ctx, endpointMerger(mode));
    } else if (mode === 'patch') {
      merged.endpoints = previous;
    }
    return merged;
  };
}

function mergeContainers(
  existing: JsonObject[],
  items: JsonObject[],
  mode: Mode,
  errors: FieldError[],
): JsonObject[] {
  const ctx = { mode, path: 'containerTemplates', errors, key: 'name' };
  const merged = mergeById(existing, items, ctx, containerMerger(mode, errors));
  // New containers may still carry endpoint ids; those match nothing.
  merged.forEach((c, i) => {
    if (c.id !== undefined) return;
    const eps = (c.endpoints as JsonObject[] | undefined) ?? [];
    const epCtx = {
      mode: 'create' as Mode,
      path: `containerTemplates[${i}].endpoints`,
      errors,
      key: 'displayName',
    };
    c.endpoints = mergeById([], eps, epCtx, endpointMerger('create'));
  });
  return merged;
}

/** Read model of an app turned back into its request shape (ids kept). */
export function draftOf(stored: StoredApp): JsonObject {
  const app = stored.app;
  const region = app.regionSettings as JsonObject;
  const draft: JsonObject = {
    name: app.name,
    runtimeType: app.runtimeType,
    autoScaling: app.autoScaling,
    regionSettings: {
      allowedRegionIds: region.allowedRegionIds,
      requiredRegionIds: region.requiredRegionIds,
      maxAllowedRegions: region.maxAllowedRegions ?? null,
      nodeSelectors: stored.hidden.nodeSelectors ?? null,
    },
    containerTemplates: (app.containerTemplates as JsonObject[]).map(containerDraft),
    volumes: app.volumes,
  };
  if (app.repositorySettings !== undefined) draft.repositorySettings = app.repositorySettings;
  if (stored.hidden.terminationGracePeriodSeconds !== undefined) {
    draft.terminationGracePeriodSeconds = stored.hidden.terminationGracePeriodSeconds;
  }
  return structuredClone(draft);
}

function containerDraft(c: JsonObject): JsonObject {
  const { packageId: _p, image: _i, imageDigest: _d, endpoints, ...rest } = c;
  return { ...rest, endpoints: (endpoints as JsonObject[]).map(endpointDraft) };
}

/**
 * A stored endpoint in request shape. An InternalIP (`publicIp`) endpoint has no documented
 * request member; its draft carries the simulator's own `internalIp` (the member the vendor's
 * Terraform provider sends to the platform's private API), which no client can send: the
 * request schema refuses it.
 */
function endpointDraft(e: JsonObject): JsonObject {
  const head = { id: e.id, displayName: e.displayName };
  if (e.type === 'anycast')
    return { ...head, anycast: { type: 'iPv4', portMappings: e.portMappings } };
  if (e.type === 'publicIp') return { ...head, internalIp: { portMappings: e.portMappings } };
  return {
    ...head,
    cdn: {
      isSslEnabled: e.isSslEnabled,
      pullZoneId: Number(e.pullZoneId),
      portMappings: e.portMappings,
      stickySessions: e.stickySessions,
    },
  };
}

function mergeArrays(
  draft: JsonObject,
  base: JsonObject,
  body: JsonObject,
  mode: Mode,
  errors: FieldError[],
): void {
  const baseContainers = (base.containerTemplates as JsonObject[] | undefined) ?? [];
  if (Array.isArray(body.containerTemplates)) {
    draft.containerTemplates = mergeContainers(
      baseContainers,
      body.containerTemplates as JsonObject[],
      mode,
      errors,
    );
  } else {
    draft.containerTemplates = mode === 'patch' ? baseContainers : [];
  }
  const baseVolumes = (base.volumes as JsonObject[] | undefined) ?? [];
  if (Array.isArray(body.volumes)) {
    const ctx = { mode, path: 'volumes', errors, key: 'name' };
    draft.volumes = mergeById(baseVolumes, body.volumes as JsonObject[], ctx, (e, item) =>
      mode === 'patch' ? (mergePatch(e, item) as JsonObject) : item,
    );
  } else {
    draft.volumes = mode === 'patch' ? baseVolumes : [];
  }
}

/**
 * Full configuration after applying `body` to `existing` (undefined on create). Unknown ids are
 * reported in `errors`. PATCH: absent (or null) top-level fields stay unchanged, objects are
 * merge-patched. PUT: everything comes from the body.
 */
export function buildDraft(
  body: JsonObject,
  existing: StoredApp | undefined,
  mode: Mode,
  errors: FieldError[],
): JsonObject {
  const base = existing ? draftOf(existing) : {};
  const draft: JsonObject = mode === 'patch' ? { ...base } : { ...body };
  if (mode === 'patch') {
    for (const key of ['name', 'runtimeType', 'autoScaling', 'regionSettings']) {
      if (body[key] !== undefined && body[key] !== null)
        draft[key] = mergePatch(base[key], body[key]);
    }
  }
  mergeArrays(draft, base, body, mode, errors);
  return draft;
}
