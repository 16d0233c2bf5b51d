import type { CustomsData } from '../../contract/customs.ts';

/**
 * The customs and box fields between the wire (snake_case, absent = unchanged) and the columns of
 * products and variants, written once for the product form, the variant table and the CSV.
 */

const present = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** Columns to write: only the fields the input names. */
export function customsColumns(input: {
  hs_code?: string | null;
  origin_country?: string | null;
  customs_description?: string | null;
  net_weight?: number | null;
}) {
  return {
    ...present('hsCode', input.hs_code),
    ...present('originCountry', input.origin_country),
    ...present('customsDescription', input.customs_description),
    ...present('netWeight', input.net_weight),
  };
}

export function boxColumns(input: {
  box_length?: number | null;
  box_width?: number | null;
  box_height?: number | null;
}) {
  return {
    ...present('boxLength', input.box_length),
    ...present('boxWidth', input.box_width),
    ...present('boxHeight', input.box_height),
  };
}

export const customsWire = (row: CustomsData) => ({
  hs_code: row.hsCode,
  origin_country: row.originCountry,
  customs_description: row.customsDescription,
  net_weight: row.netWeight,
});

export const boxWire = (row: {
  boxLength: number | null;
  boxWidth: number | null;
  boxHeight: number | null;
}) => ({
  box_length: row.boxLength,
  box_width: row.boxWidth,
  box_height: row.boxHeight,
});
