import { parse } from 'csv-parse/sync';
import { PRODUCT_CSV_COLUMNS } from '../../../contract/admin.ts';
import {
  csvDelimiter,
  type SpreadsheetEncoding,
  sameSaveForWindows1251,
  unescapeCsvCell,
  unholdableInWindows1251,
} from '../../files/spreadsheet-csv.ts';
import type { Column, KeptTextColumn, RowProblem } from './columns.ts';

export interface CsvRecord {
  line: number;
  cells: string[];
}

/** csv-parse's refusals the report names, by its error code; any other is `csv-invalid`. */
const PARSE_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'csv-quote-not-closed',
  CSV_INVALID_CLOSING_QUOTE: 'csv-quote-invalid',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'csv-quote-invalid',
};

/** Rows with the line each starts on (a quoted description may span lines). */
export function readCsv(csv: string): { header: string[]; records: CsvRecord[] } | RowProblem {
  let parsed: Array<{ record: string[]; info: { lines: number; empty_lines: number } }>;
  try {
    // With `info` each record comes with its position; csv-parse's types do not model that option.
    parsed = parse(csv, {
      bom: true,
      delimiter: csvDelimiter(csv),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    const { lines, code } = error as { lines?: unknown; code?: unknown };
    return {
      line: typeof lines === 'number' ? lines : 0,
      field: 'csv',
      message: (typeof code === 'string' ? PARSE_ERRORS[code] : undefined) ?? 'csv-invalid',
    };
  }
  const [first, ...rest] = parsed;
  if (!first) return { line: 1, field: 'csv', message: 'csv-column-missing' };
  let endLine = first.info.lines;
  let emptyLines = first.info.empty_lines;
  const records = rest.map(({ record, info }) => {
    const line = endLine + 1 + (info.empty_lines - emptyLines);
    endLine = info.lines;
    emptyLines = info.empty_lines;
    return { line, cells: record.map(unescapeCsvCell) };
  });
  return { header: first.record.map((name) => name.trim().toLowerCase()), records };
}

/** The header's problems: unknown or repeated columns, or no `link`. */
export function checkHeader(header: readonly string[]): RowProblem[] {
  const problems: RowProblem[] = [];
  const known = new Set<string>(PRODUCT_CSV_COLUMNS);
  header.forEach((name, index) => {
    if (!known.has(name))
      problems.push({ line: 1, field: name || `#${index + 1}`, message: 'csv-column-unknown' });
    else if (header.indexOf(name) !== index)
      problems.push({ line: 1, field: name, message: 'csv-column-duplicate' });
  });
  if (!header.includes('link')) problems.push({ line: 1, field: 'link', message: 'csv-column-missing' });
  return problems;
}

/** A row that has at least one filled cell, with its cells by column. */
export interface CsvRow {
  line: number;
  cells: string[];
  /** The cell of `column`, or undefined when the file has no such column. */
  value: (column: Column) => string | undefined;
}

export function csvRows(header: readonly string[], records: readonly CsvRecord[]): CsvRow[] {
  return records
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''))
    .map(({ line, cells }) => ({
      line,
      cells,
      value: (column: Column) => {
        const index = header.indexOf(column);
        return index === -1 ? undefined : (cells[index] ?? '');
      },
    }));
}

/** Roubles with a dot, or with the decimal comma a Russian spreadsheet writes (`1290,50`). */
export const PRICE = /^\d{1,8}([.,]\d{1,2})?$/;
export const INTEGER = /^-?\d{1,9}$/;
const TRUE = new Set(['1', 'true']);
const FALSE = new Set(['0', 'false']);

/** A `|`-separated list, trimmed, without empty items; undefined stays undefined. */
export const listOf = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split('|')
        .map((item) => item.trim())
        .filter(Boolean);

/**
 * Reads one row's cells as the plan needs them, gathering the row's problems (`problems`) and
 * adding to `warnings` the text fields a Windows-1251 file kept as stored.
 */
export function rowReader(row: CsvRow, encoding: SpreadsheetEncoding, warnings: RowProblem[]) {
  const problems: RowProblem[] = [];
  const fail = (field: string, message: string, detail?: string) => {
    problems.push({ line: row.line, field, message, ...(detail ? { detail } : {}) });
  };
  /** The cell, or undefined when the column is absent or (with `emptyIsUnset`) the cell is empty. */
  const cell = (column: Column, emptyIsUnset = false) => {
    const value = row.value(column)?.trim();
    return value === undefined || (emptyIsUnset && value === '') ? undefined : value;
  };
  /**
   * A text cell of a Windows-1251 file over a stored value that file cannot hold: the stored
   * value, with a warning saying whether the file changed anything else in it.
   */
  const text = (
    column: KeptTextColumn | 'variant_customs_description',
    incoming: string | undefined,
    stored: string | null | undefined,
  ) => {
    if (encoding !== 'windows-1251' || incoming === undefined || !stored) return incoming;
    const lost = unholdableInWindows1251(stored);
    if (lost.length === 0) return incoming;
    warnings.push({
      line: row.line,
      field: column,
      message: sameSaveForWindows1251(stored, incoming) ? 'csv-encoding-kept' : 'csv-encoding-change-kept',
      detail: lost.join(' '),
    });
    return stored;
  };
  const number = (
    column:
      | 'price'
      | 'sale'
      | 'weight'
      | 'quantity'
      | 'quantity_seen'
      | 'variant_price'
      | 'variant_sale'
      | 'variant_weight',
    pattern: RegExp,
    emptyIsUnset = true,
  ) => {
    const value = cell(column, emptyIsUnset);
    if (value === undefined || value === '') return value;
    if (!pattern.test(value)) fail(column, 'number-invalid');
    return pattern === PRICE ? value.replace(',', '.') : value;
  };
  const bool = (column: 'visible' | 'week_sale' | 'envisioned') => {
    const value = cell(column, true)?.toLowerCase();
    if (value === undefined) return undefined;
    if (TRUE.has(value)) return true;
    if (FALSE.has(value)) return false;
    fail(column, 'boolean-invalid');
    return undefined;
  };
  return { row, problems, fail, cell, text, number, bool };
}

export type RowReader = ReturnType<typeof rowReader>;
