/**
 * YAML that kubectl reads as written. kubectl and the apiserver read YAML 1.1, where unquoted
 * `Off`, `on`, `yes`, `no`, `~` or `012` are not strings; emitting in YAML 1.1 mode quotes every
 * such string (the same rule as hack/generate-crds.ts for the CRDs).
 *
 * The emitter writes a few characters raw that kubectl's reader (go-yaml) does not read back:
 * NEL, LS and PS are line breaks there (a page holding one would change, or end its block
 * early), and DEL, the other C1 controls and U+FFFE/U+FFFF are refused outright. Strings
 * holding one are written double-quoted with those characters escaped, so every string — a
 * custom page's HTML included, which is compared by SHA-256 — reads back byte for byte.
 */
import { Document, Scalar, visit } from 'yaml';

/** Characters go-yaml reads differently or refuses (see the module comment), plus the BOM. */
const UNSAFE_RAW = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const UNSAFE_RAW_ALL = new RegExp(UNSAFE_RAW.source, 'g');

/** Short escapes of YAML double-quoted scalars; every other character as `\uXXXX`. */
const NAMED_ESCAPES: Record<string, string> = {
  '\u0085': '\\N',
  '\u2028': '\\L',
  '\u2029': '\\P',
};

function escapeRaw(ch: string): string {
  return NAMED_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One document, YAML 1.1 safe, without line folding. */
export function toYaml11(value: unknown): string {
  const doc = new Document(value, { version: '1.1' });
  let quoted = false;
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && UNSAFE_RAW.test(node.value)) {
        node.type = Scalar.QUOTE_DOUBLE;
        quoted = true;
      }
    },
  });
  const text = doc.toString({ lineWidth: 0 });
  // Such characters can only be in the double-quoted scalars above, where an escape is exact.
  return quoted ? text.replace(UNSAFE_RAW_ALL, escapeRaw) : text;
}

/** Several documents separated by `---`. */
export function toYamlStream(values: readonly unknown[]): string {
  return values.map((v) => `---\n${toYaml11(v)}`).join('');
}
