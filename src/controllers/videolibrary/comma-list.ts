/**
 * A set of names the platform keeps as one comma-separated string (`EnabledResolutions`,
 * `OutputCodecs`: `"720p,1080p"`): a list in the spec, each item one of `names` (a CRD pattern:
 * the values are not UpperCamel enum names), compared as a set (the platform's order is its
 * own), sent joined by commas.
 */
import type { Codec } from '../kit/codecs.js';

/** See the module comment. */
export function commaSet(names: readonly string[]): Codec<string[]> {
  return {
    schema: {
      type: 'array',
      'x-kubernetes-list-type': 'set',
      minItems: 1,
      maxItems: names.length,
      // A pattern, not an enum: CRD enum values are UpperCamel names, these are the platform's.
      items: { type: 'string', pattern: `^(${names.join('|')})$` },
    },
    toWire: (v) => v.join(','),
    fromWire: (w) =>
      typeof w === 'string'
        ? w
            .split(',')
            .map((x) => x.trim())
            .filter((x) => x !== '')
        : undefined,
    same: (a, b) => a.length === b.length && a.every((x) => b.includes(x)),
  };
}
