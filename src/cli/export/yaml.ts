/**
 * YAML that kubectl reads as written. kubectl and the apiserver read YAML 1.1, where unquoted
 * `Off`, `on`, `yes`, `no`, `~` or `012` are not strings; emitting in YAML 1.1 mode quotes every
 * such string (the same rule as hack/generate-crds.ts for the CRDs).
 */
import { stringify } from 'yaml';

/** One document, YAML 1.1 safe, without line folding. */
export function toYaml11(value: unknown): string {
  return stringify(value, { lineWidth: 0, version: '1.1' });
}

/** Several documents separated by `---`. */
export function toYamlStream(values: readonly unknown[]): string {
  return values.map((v) => `---\n${toYaml11(v)}`).join('');
}
