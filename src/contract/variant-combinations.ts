/**
 * "Generate all combinations" of the variant table (issue 16): one row per combination of the
 * options' values, in the options' order. A row that already exists for a combination stays as it
 * is (its id, SKU, stock and price); a new one gets a SKU made of the product's link and the
 * values. Rows are matched by their values' English texts, which are unique within an option.
 */

export interface CombinationRow {
  options: string[];
  sku: string;
}

const skuPart = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

/** The SKU a new variant gets: `link-l-red`. */
export const suggestedSku = (link: string, options: readonly string[]) =>
  [link, ...options.map(skuPart)].filter((part) => part !== '').join('-');

/** Every combination of the options' values (each option's values by English text), in order. */
export function combinations(options: readonly (readonly string[])[]): string[][] {
  return options.reduce<string[][]>(
    (rows, values) => rows.flatMap((row) => values.map((value) => [...row, value])),
    [[]],
  );
}

const key = (options: readonly string[]) => JSON.stringify(options);

/**
 * The rows of the table after generating: existing rows whose combination is still offered, in the
 * new order, and a fresh row (made by `create`) for every other combination. Existing rows with a
 * combination no longer offered are left out; the save refuses to drop one that open orders hold.
 */
export function generateRows<T extends CombinationRow>(
  options: readonly (readonly string[])[],
  existing: readonly T[],
  create: (combination: string[]) => T,
): T[] {
  const byCombination = new Map(existing.map((row) => [key(row.options), row]));
  return combinations(options).map(
    (combination) => byCombination.get(key(combination)) ?? create(combination),
  );
}
