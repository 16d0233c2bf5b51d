import type { ProductDetail, ProductOption, ProductVariant } from '../../contract/catalog.ts';

/**
 * The shopper's choice of options on the product page lives in its address, so it is rendered by
 * the server, can be shared and survives a reload: `?size=L&colour=Red` (a size or colour option by
 * its kind, any other by `option-<id>`; values by their English name, in any case), or
 * `?variant=<id>`, which names every value at once.
 */

type Options = Pick<ProductDetail, 'options' | 'variants'>;

/** Chosen value id per option id. */
export type Choice = ReadonlyMap<number, number>;

/** The query parameter that holds an option's value. */
export const optionParam = (option: Pick<ProductOption, 'id' | 'kind'>) =>
  option.kind === 'other' ? `option-${option.id}` : option.kind;

const VARIANT_PARAM = 'variant';

/** Whether a query parameter holds (part of) the choice. */
export const isChoiceParam = (name: string) =>
  name === VARIANT_PARAM || name === 'size' || name === 'colour' || name.startsWith('option-');

/** The query naming a variant at once, as its own address in feeds (`?variant=12`). */
export const variantQuery = (variantId: number) => `?${VARIANT_PARAM}=${variantId}`;

export function readChoice(product: Options, params: URLSearchParams): Choice {
  const named = product.variants.find((variant) => String(variant.id) === params.get(VARIANT_PARAM));
  if (named && product.options.length > 0) {
    return new Map(named.values.map((valueId, index) => [product.options[index]?.id ?? 0, valueId]));
  }
  const choice = new Map<number, number>();
  for (const option of product.options) {
    const wanted = params.get(optionParam(option))?.trim().toLowerCase();
    if (!wanted) continue;
    const value = option.values.find(
      (candidate) => candidate.key.toLowerCase() === wanted || candidate.value.toLowerCase() === wanted,
    );
    if (value) choice.set(option.id, value.id);
  }
  return choice;
}

/** The variant the choice names: every option chosen (a product without options: its one variant). */
export function chosenVariant(product: Options, choice: Choice): ProductVariant | undefined {
  if (product.options.length === 0) return product.variants[0];
  if (product.options.some((option) => !choice.has(option.id))) return undefined;
  return product.variants.find((variant) =>
    variant.values.every((valueId, index) => choice.get(product.options[index]?.id ?? 0) === valueId),
  );
}

/** The variants that agree with the options chosen so far (all of them before any choice). */
export const matchingVariants = (product: Options, choice: Choice): ProductVariant[] =>
  product.variants.filter((variant) =>
    variant.values.every((valueId, index) => {
      const chosen = choice.get(product.options[index]?.id ?? 0);
      return chosen === undefined || chosen === valueId;
    }),
  );

/**
 * Whether a value can be bought with the other options as chosen: some variant in stock has it.
 * Sold-out values stay choosable (the shopper may want to hear when they are back).
 */
export function valueInStock(
  product: Options,
  choice: Choice,
  optionIndex: number,
  valueId: number,
): boolean {
  return product.variants.some(
    (variant) =>
      variant.inStock > 0 &&
      variant.values[optionIndex] === valueId &&
      variant.values.every((other, index) => {
        if (index === optionIndex) return true;
        const chosen = choice.get(product.options[index]?.id ?? 0);
        return chosen === undefined || chosen === other;
      }),
  );
}

/** The address's query with the choice written in, other parameters (reviews) kept. */
export function withChoice(product: Options, params: URLSearchParams, choice: Choice): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(VARIANT_PARAM);
  next.delete('added');
  for (const option of product.options) {
    const value = option.values.find((candidate) => candidate.id === choice.get(option.id));
    if (value) next.set(optionParam(option), value.key);
    else next.delete(optionParam(option));
  }
  return next;
}
