/**
 * Go-style durations (`500ms`, `30s`, `10m`, `1h30m`) used by flags and the poll-interval
 * annotation.
 */

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a duration to milliseconds; throws `invalid duration "x": ...` on bad input. */
export function parseDuration(value: string): number {
  const s = value.trim();
  if (/^\d+$/.test(s)) {
    throw new Error(`invalid duration "${value}": missing unit (use ms, s, m or h, e.g. 30s)`);
  }
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let pos = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    total += Number(m[1]) * (UNITS[m[2] as string] ?? 0);
    pos = re.lastIndex;
  }
  if (s === '' || pos !== s.length) {
    throw new Error(`invalid duration "${value}": expected e.g. 500ms, 30s, 10m, 1h30m`);
  }
  return Math.round(total);
}

/** Formats milliseconds compactly (`90000` → `1m30s`). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  rest -= m * 60;
  if (h) parts.push(`${h}h`);
  if (m) parts.push(`${m}m`);
  if (rest || parts.length === 0) parts.push(`${rest}s`);
  return parts.join('');
}
