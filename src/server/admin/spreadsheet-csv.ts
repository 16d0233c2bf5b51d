import { stringify } from 'csv-stringify/sync';
import type { Kopecks } from '../../contract/money.ts';

/**
 * CSV files the back office hands to spreadsheets. A cell starting with = + - @ (or a tab or CR)
 * would run as a formula when the file is opened (OWASP "CSV injection"), so such a cell gets a
 * leading single quote, which spreadsheets show as text. Cells already starting with quotes before
 * such a character get one more, so that the import can take exactly one off and read back what
 * was exported. Files start with a UTF-8 BOM so that spreadsheets read Cyrillic.
 */

export const CSV_BOM = '\uFEFF';

const FORMULA = /^'*[=+\-@\t\r]/;

export const escapeCsvCell = (value: string): string => (FORMULA.test(value) ? `'${value}` : value);

/** The import's reading of a cell: the quote the export added comes off again. */
export const unescapeCsvCell = (value: string): string =>
  value.startsWith("'") && FORMULA.test(value) ? value.slice(1) : value;

/** One CSV line (ending in a newline) with every cell escaped. */
export const csvLine = (cells: readonly string[]): string => stringify([cells.map(escapeCsvCell)]);

/** Roubles with a dot and two decimals, from integer kopecks (no floating point on the way). */
export const csvRoubles = (amount: Kopecks): string =>
  `${Math.trunc(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;
