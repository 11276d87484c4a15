/**
 * "A Secret value never appears" checks of the e2e tests: the places a value could leak to
 * (operator log, events, objects, metrics) and the forms it could take there (as is, base64,
 * URL- and JSON-encoded).
 */
import type { ExecutionContext } from 'ava';

/** Every form a leaked `value` could take in a log line, an event, an object or a metric. */
export function encodedForms(value: string): string[] {
  return [
    value,
    Buffer.from(value).toString('base64'),
    encodeURIComponent(value),
    JSON.stringify(value).slice(1, -1),
  ];
}

/** Asserts that no form of any of `values` appears in any of `places` ([where, text]). */
export function assertAbsent(
  t: ExecutionContext,
  places: Array<[where: string, text: string]>,
  values: readonly string[],
): void {
  const needles = values.flatMap(encodedForms);
  for (const [where, text] of places) {
    for (const needle of needles)
      t.false(text.includes(needle), `${needle} appears in the ${where}`);
  }
}
