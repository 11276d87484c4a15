/**
 * JSON merge patch (RFC 7386) generation and deep equality for plain JSON values.
 */

/** Plain JSON object. */
export type JsonObject = Record<string, unknown>;

function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep equality of JSON values (key order ignored, `undefined` members ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return arraysEqual(a, b);
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!jsonEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

function arraysEqual(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((x, i) => jsonEqual(x, b[i]));
}

/**
 * The merge patch that turns `from` into `to`: changed members set, removed members `null`,
 * nested objects diffed recursively, arrays replaced whole. Empty object when equal.
 */
export function createMergePatch(from: JsonObject, to: JsonObject): JsonObject {
  const patch: JsonObject = {};
  for (const key of Object.keys(from)) {
    if (from[key] !== undefined && to[key] === undefined) patch[key] = null;
  }
  for (const [key, value] of Object.entries(to)) {
    if (value === undefined) continue;
    const prev = from[key];
    if (jsonEqual(prev, value)) continue;
    patch[key] =
      isPlainObject(prev) && isPlainObject(value) ? createMergePatch(prev, value) : value;
  }
  return patch;
}
