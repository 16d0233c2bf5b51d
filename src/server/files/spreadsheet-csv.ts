import { stringify } from 'csv-stringify/sync';
import type { Kopecks, MinorUnits } from '../../contract/money.ts';
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

/** What separates cells: `;` is what Excel in a Russian locale reads, `,` elsewhere (or a tab). */
export type CsvDelimiter = ',' | ';' | '\t';

/** One CSV line (ending in a newline) with every cell escaped: the back office's one CSV writer. */
export const csvLine = (cells: readonly string[], delimiter: CsvDelimiter = ','): string =>
  stringify([cells.map(escapeCsvCell)], { delimiter });

/**
 * An amount in minor units (kopecks, cents) with two decimals after `mark` (no floating point on
 * the way): a spreadsheet whose cells are `;`-separated reads a decimal comma, a `,`-separated one
 * a dot.
 */
export function csvDecimal(amount: MinorUnits, mark: '.' | ',' = '.'): string {
  const sign = amount < 0 ? '-' : '';
  const absolute = Math.abs(amount);
  return `${sign}${Math.trunc(absolute / 100)}${mark}${String(absolute % 100).padStart(2, '0')}`;
}

/** Roubles with a dot and two decimals, from integer kopecks. */
export const csvRoubles = (amount: Kopecks): string => csvDecimal(amount);

/**
 * The delimiter of a file, told by its header line: Excel in a Russian locale saves `;`-separated
 * files (the comma is the decimal separator there), others `,`; a tab-separated export also reads.
 */
export function csvDelimiter(csv: string): CsvDelimiter {
  const header = csv.slice(0, csv.search(/\r?\n|$/));
  const count = (character: string) => header.split(character).length - 1;
  const [commas, semicolons, tabs] = [count(','), count(';'), count('\t')];
  if (tabs > commas && tabs > semicolons) return '\t';
  return semicolons > commas ? ';' : ',';
}

/** Control bytes no text file holds (tab, line breaks and form feed aside): a workbook, a picture or an archive does. */
const isBinaryByte = (byte: number) => byte <= 0x08 || (byte >= 0x0e && byte <= 0x1f);

/** How a spreadsheet file was written: UTF-8, or the Windows-1251 of Russian Excel's "CSV". */
export type SpreadsheetEncoding = 'utf-8' | 'windows-1251';

/**
 * A spreadsheet file's text: UTF-8 (with or without a BOM) when it is valid UTF-8, else
 * Windows-1251, the encoding Excel in a Russian locale saves "CSV (comma delimited)" in. A binary
 * file (an .xlsx workbook, a picture) is refused with a message saying so.
 */
export function readSpreadsheetFile(bytes: Uint8Array): { text: string; encoding: SpreadsheetEncoding } {
  if (bytes.subarray(0, 64 * 1024).some(isBinaryByte))
    throw new Invalid('csv-binary', { csv: ['csv-binary'] });
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1251').decode(bytes), encoding: 'windows-1251' };
  }
}

/** Every character Windows-1251 has a byte for (its 256 bytes, decoded). */
const WINDOWS_1251 = new Set(
  new TextDecoder('windows-1251').decode(Uint8Array.from({ length: 256 }, (_, byte) => byte)),
);

/** The characters of `text` Windows-1251 cannot hold (², ×, emoji …), each once, in order. */
export const unholdableInWindows1251 = (text: string): string[] => [
  ...new Set([...text].filter((character) => !WINDOWS_1251.has(character))),
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `incoming`, read from a Windows-1251 file, is `stored` as Excel writes it into that
 * encoding: each character it cannot hold replaced (by `?`, or by a look-alike such as `2` for `²`;
 * an emoji by one or two characters), everything else the same.
 */
export function sameSaveForWindows1251(stored: string, incoming: string): boolean {
  const pattern = [...stored]
    .map((character) =>
      WINDOWS_1251.has(character) ? escapeRegExp(character) : `[^]{1,${character.length}}`,
    )
    .join('');
  return new RegExp(`^${pattern}$`, 'u').test(incoming);
}
