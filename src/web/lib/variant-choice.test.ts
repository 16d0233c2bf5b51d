import { describe, expect, it } from 'vitest';
import type { ProductDetail } from '../../contract/catalog.ts';
import { chosenVariant, matchingVariants, readChoice, valueInStock, withChoice } from './variant-choice.ts';

/** A T-shirt in two colours and two sizes; red M is sold out, black L is not made. */
const shirt: Pick<ProductDetail, 'options' | 'variants'> = {
  options: [
    {
      id: 1,
      kind: 'colour',
      name: 'Colour',
      values: [
        { id: 11, value: 'Black', key: 'Black', swatch: '#111111' },
        { id: 12, value: 'Red', key: 'Red', swatch: '#cc0000' },
      ],
    },
    {
      id: 2,
      kind: 'size',
      name: 'Size',
      values: [
        { id: 21, value: 'M', key: 'M', swatch: null },
        { id: 22, value: 'L', key: 'L', swatch: null },
      ],
    },
  ],
  variants: [
    { id: 101, sku: 'black-m', values: [11, 21], price: 100, sale: null, inStock: 1, perCustomerLimit: null },
    { id: 102, sku: 'red-m', values: [12, 21], price: 100, sale: null, inStock: 0, perCustomerLimit: null },
    { id: 103, sku: 'red-l', values: [12, 22], price: 120, sale: null, inStock: 2, perCustomerLimit: null },
  ],
};
const params = (query: string) => new URLSearchParams(query);

describe('the choice of options in the product page address', () => {
  it('reads values by option kind in any case, or a variant id naming them all', () => {
    expect(chosenVariant(shirt, readChoice(shirt, params('colour=red&size=l')))?.sku).toBe('red-l');
    expect(chosenVariant(shirt, readChoice(shirt, params('variant=101')))?.sku).toBe('black-m');
    expect([...readChoice(shirt, params('size=M'))]).toEqual([[2, 21]]);
    expect(chosenVariant(shirt, readChoice(shirt, params('size=M')))).toBeUndefined();
    expect(readChoice(shirt, params('size=XXL&variant=999')).size).toBe(0);
  });

  it('names no variant for a combination not made', () => {
    expect(chosenVariant(shirt, readChoice(shirt, params('colour=Black&size=L')))).toBeUndefined();
  });

  it('keeps the variants the choice so far leaves open', () => {
    expect(
      matchingVariants(shirt, readChoice(shirt, params('colour=Red'))).map((variant) => variant.sku),
    ).toEqual(['red-m', 'red-l']);
    expect(matchingVariants(shirt, readChoice(shirt, params(''))).length).toBe(3);
  });

  it('marks a value sold out when no variant in stock has it with the other choices', () => {
    expect(valueInStock(shirt, readChoice(shirt, params('colour=Red')), 1, 21)).toBe(false);
    expect(valueInStock(shirt, readChoice(shirt, params('colour=Black')), 1, 21)).toBe(true);
    expect(valueInStock(shirt, readChoice(shirt, params('')), 1, 21)).toBe(true);
  });

  it('writes the choice by kind, keeping other parameters and dropping a variant id', () => {
    const choice = new Map([
      [1, 12],
      [2, 22],
    ]);
    expect(withChoice(shirt, params('reviews=2&variant=101&added=5'), choice).toString()).toBe(
      'reviews=2&colour=Red&size=L',
    );
  });
});
