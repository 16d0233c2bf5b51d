import { stringify } from 'csv-stringify/sync';
import type { Kopecks } from '../../contract/money.ts';
import { Invalid } from '../errors.ts';

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

/**
 * The delimiter of a file, told by its header line: Excel in a Russian locale saves `;`-separated
 * files (the comma is the decimal separator there), others `,`; a tab-separated export also reads.
 */
export function csvDelimiter(csv: string): ',' | ';' | '\t' {
  const header = csv.slice(0, csv.search(/\r?\n|$/));
  const count = (character: string) => header.split(character).length - 1;
  const [commas, semicolons, tabs] = [count(','), count(';'), count('\t')];
  if (tabs > commas && tabs > semicolons) return '\t';
  return semicolons > commas ? ';' : ',';
}

/** Control bytes no text file holds (tab, line breaks and form feed aside): a workbook, a picture or an archive does. */
const isBinaryByte = (byte: number) => byte <= 0x08 || (byte >= 0x0e && byte <= 0x1f);

/**
 * A spreadsheet file's text: UTF-8 (with or without a BOM) when it is valid UTF-8, else
 * Windows-1251, the encoding Excel in a Russian locale saves "CSV (comma delimited)" in. A binary
 * file (an .xlsx workbook, a picture) is refused with a message saying so.
 */
export function readSpreadsheetFile(bytes: Uint8Array): string {
  if (bytes.subarray(0, 64 * 1024).some(isBinaryByte))
    throw new Invalid('csv-binary', { csv: ['csv-binary'] });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1251').decode(bytes);
  }
}
