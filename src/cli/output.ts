/**
 * Renders command results: a table by default (columns chosen per command, or a FIELD/VALUE
 * listing of one object), or the whole value as JSON or YAML.
 */
import { stringify } from 'yaml';

export type OutputFormat = 'table' | 'json' | 'yaml';

/** One table column: header and how to read the cell from a row. */
export interface Column {
  header: string;
  get(row: Record<string, unknown>): unknown;
}

/** What a command produced. */
export interface CommandResult {
  /** The data (printed as is for json/yaml). */
  value: unknown;
  /** Columns for a list value in table form; without them an object prints as FIELD/VALUE. */
  columns?: Column[];
  /** Rows for table form when they differ from `value` (e.g. the items of a paged envelope). */
  rows?: unknown[];
  /** One-line confirmation for operations without a result body (table form). */
  message?: string;
  /** Text printed as is to stdout instead of rendering `value` (commands that own their output). */
  text?: string;
  /** Text printed to stderr (so stdout stays machine-readable). */
  notes?: string;
  /** Exit code when the command succeeded but has something to report (diff: 1 = changes). */
  exitCode?: number;
}

/** Shorthand for a column that reads one property. */
export function col(header: string, key: string): Column {
  return { header, get: (row) => row[key] };
}

/** Formats a cell: scalars as text, lists of scalars comma-joined, other structures summarised. */
export function cell(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x !== 'object' || x === null)) return v.map((x) => cell(x)).join(',');
    return `[${v.length} items]`;
  }
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return '{…}';
}

/** Renders rows as an aligned plain-text table with a header line. */
export function renderTable(rows: Array<Record<string, unknown>>, columns: Column[]): string {
  const cells = rows.map((r) => columns.map((c) => cell(c.get(r)).replace(/\s+/g, ' ')));
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...cells.map((r) => r[i]!.length)),
  );
  const line = (values: string[]): string =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n') + '\n';
}

function renderObject(value: Record<string, unknown>): string {
  const rows = Object.entries(value).map(([field, v]) => ({ field, v }));
  return renderTable(rows, [col('FIELD', 'field'), col('VALUE', 'v')]);
}

/** Renders a result in the chosen format. */
export function render(result: CommandResult, format: OutputFormat): string {
  if (format === 'json') return `${JSON.stringify(result.value ?? null, null, 2)}\n`;
  if (format === 'yaml') return stringify(result.value ?? null);
  if (result.message !== undefined) return `${result.message}\n`;
  return renderAsTable(result.rows ?? result.value, result.columns);
}

function renderAsTable(v: unknown, columns: Column[] | undefined): string {
  if (Array.isArray(v))
    return renderTable(v as Array<Record<string, unknown>>, columns ?? [col('VALUE', 'v')]);
  if (v && typeof v === 'object') {
    const row = v as Record<string, unknown>;
    return columns ? renderTable([row], columns) : renderObject(row);
  }
  return `${cell(v)}\n`;
}
