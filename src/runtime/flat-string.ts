/**
 * Flat copies of concatenated strings, for keys that live as long as their object.
 *
 * V8 keeps the result of a template literal or `+` as a tree of ConsString nodes (a few
 * dozen bytes each, plus every part, including short prefixes such as `team-a/` copied per
 * key) and hashing it as a Map key does not flatten it. Keys stored once per managed object
 * in long-lived maps (the cache, the claim and reference indexes, the status memo) are made
 * flat here: one sequential string each (docs/runtime.md, Memory).
 */

/** `s` as one sequential string (a fresh copy when V8 holds it as a concatenation). */
export function flatString(s: string): string {
  // JSON.parse creates a fresh sequential string for a string literal; V8 has no public
  // flatten call, and String methods that flatten keep the ConsString wrapper alive.
  return JSON.parse(JSON.stringify(s)) as string;
}
