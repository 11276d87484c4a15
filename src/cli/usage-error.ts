/** A mistake in how cdnctl was invoked (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Parses a positive integer argument or throws a UsageError naming it. */
export function parseId(name: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${name} must be a positive integer, got ${JSON.stringify(value ?? '')}`);
  }
  return n;
}

/** Parses an optional integer flag or throws a UsageError naming it. */
export function parseOptionalInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value))
    throw new UsageError(`--${name} must be an integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Parses `true`/`false` (also on/off, yes/no). */
export function parseBool(name: string, value: string | undefined): boolean {
  const v = (value ?? '').toLowerCase();
  if (['true', 'on', 'yes'].includes(v)) return true;
  if (['false', 'off', 'no'].includes(v)) return false;
  throw new UsageError(`${name} must be true or false, got ${JSON.stringify(value ?? '')}`);
}
