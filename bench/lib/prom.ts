/**
 * Prometheus text exposition parsing for the bench: samples by name and labels, summed over
 * the label subset asked for. Only what the operator's prom-client registry emits is needed.
 */

/** One sample line. */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})?\s+(\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** Parses the text format; comments and malformed lines are skipped. */
export function parseProm(text: string): PromSample[] {
  const out: PromSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(LABEL)].map((x) => [x[1], x[2]]));
    out.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return out;
}

/** Sum of the samples named `name` whose labels include `labels`; 0 when none match. */
export function sumProm(
  samples: PromSample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  let total = 0;
  for (const s of samples) {
    if (s.name !== name) continue;
    if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) total += s.value;
  }
  return total;
}

/** Samples named `name` grouped by one label, summed. */
export function groupProm(
  samples: PromSample[],
  name: string,
  label: string,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samples) {
    if (s.name !== name) continue;
    const key = s.labels[label] ?? '';
    out[key] = (out[key] ?? 0) + s.value;
  }
  return out;
}
