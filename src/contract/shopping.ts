import { LOCALES } from './locale.ts';
import { DATABASE_INT_MAX, wireNumber } from './numbers.ts';
import { z } from './zod.ts';

/** Wire shapes of the basket, wishlist and reviews calls (spec sections 3, 4, 7). */

const productId = wireNumber(
  z.coerce
    .number({ error: 'product-required' })
    .int('product-required')
    .positive('product-required')
    .max(DATABASE_INT_MAX, 'product-required'),
);

/** A variant of the product (ADR 0036); a product without options needs none. */
const variantId = wireNumber(
  z.coerce
    .number({ error: 'variant-unavailable' })
    .int('variant-unavailable')
    .positive('variant-unavailable')
    .max(DATABASE_INT_MAX, 'variant-unavailable'),
).optional();

export const productBody = z.object({ product: productId });
/** A product named in the address (`/api/release-reminders/:id`). */
export const productParams = z.object({ id: productId });

/** A basket call names a product and, for a product with options, which variant. */
export const basketLineBody = z.object({ product: productId, variant: variantId });

/** Count edits: an integer, falling back to 1, never below 1 (spec section 5). */
export const countBody = z.object({
  product: productId,
  variant: variantId,
  count: z.preprocess((value) => {
    const number = Math.trunc(Number(value));
    return Number.isFinite(number) && number >= 1 ? number : 1;
  }, z.number().int().min(1).max(9999)),
});

export const basketQuery = z.object({ locale: z.enum(LOCALES).optional() });

/**
 * A basket line's key: the product id for a product without options (as the spec's calls know
 * it), "product:variant" for a variant with options.
 */
const basketLineKey = z.union([z.number().int(), z.string()]);

export const basketItemSchema = z.object({
  id: z.number().int().describe('Product id'),
  link: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  count: z.number().int(),
  price: z.number(),
  sale: z.number().nullable(),
  inStock: z.number().int(),
});

export const basketLineSchema = basketItemSchema.extend({
  variant: z.number().int().describe('Variant id'),
  sku: z.string(),
  options: z.string().nullable().describe('"Size: L" in the locale, null for a product without options'),
});

export const basketResponse = z.object({
  success: z.literal(true),
  productList: z
    .array(basketLineKey)
    .describe('Line keys in the order they were added: product ids, or "product:variant" for variants'),
  products: z.record(z.string(), basketLineSchema),
  unavailable: z.array(basketLineKey).describe('Out of stock, envisioned, hidden, or counted over stock'),
  total: z.number().describe('Σ (sale or price) × count, roubles'),
  count: z.number().int().describe('Items in the basket (sum of counts)'),
  promo: z
    .object({
      code: z.string(),
      discount: z.number().describe('Roubles off the goods; 0 when the code does not apply now'),
      lines: z
        .record(z.string(), z.number())
        .describe("Each line's share of the discount, roubles, by line key"),
      refused: z.string().nullable().describe('Why the code does not apply now (an error key), or null'),
    })
    .optional()
    .describe('The promo code entered for this basket, checked whenever the basket is priced (ADR 0058)'),
});

/** A promo code typed in the cart or at checkout. */
export const promoCodeBody = z.object({
  code: z
    .string({ error: 'promo-code-required' })
    .trim()
    .min(1, 'promo-code-required')
    .max(40, 'promo-unknown'),
});

export const basketCountResponse = z.object({
  success: z.literal(true),
  force: z.boolean().describe('The server changed the count the client sent (clamped to stock)'),
  product: z.number().int(),
  variant: z.number().int().optional().describe('The variant named in the call'),
  count: z.number().int(),
});

export const basketRemoveResponse = z.object({
  success: z.literal(true),
  product: z.number().int(),
  variant: z.number().int().optional().describe('The variant named in the call'),
});

export const wishlistResponse = z.object({
  success: z.literal(true),
  productList: z.array(z.number().int()),
  products: z.record(
    z.string(),
    basketItemSchema.omit({ count: true }).extend({
      envisioned: z.boolean(),
      choice: z
        .object({
          name: z.string().describe('What is chosen, in the locale: "Size", "Size, Colour"'),
          variants: z.array(
            z.object({
              id: z.number().int().describe('Variant id, for the basket calls'),
              label: z.string().describe('Its values in the locale: "L", "L, Black"'),
              inStock: z.number().int().describe('Units that can be ordered now'),
            }),
          ),
        })
        .nullable()
        .describe('The variants to choose from for a product with options (ADR 0036); null without options'),
    }),
  ),
});

export const REVIEW_MAX_LENGTH = 2000;

export const reviewsQuery = z.object({
  product: productId,
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const reviewBody = z.object({
  product: productId,
  rating: wireNumber(
    z.coerce
      .number({ error: 'rating-invalid' })
      .int('rating-invalid')
      .min(1, 'rating-invalid')
      .max(5, 'rating-invalid'),
  ),
  body: z
    .string({ error: 'field-required' })
    .trim()
    .min(1, 'field-required')
    .max(REVIEW_MAX_LENGTH, 'field-too-long'),
});

export const reviewSchema = z.object({
  id: z.number().int(),
  rating: z.number().int(),
  body: z.string(),
  author: z.string(),
  date: z.string().describe('ISO 8601'),
});

export const reviewsResponse = z.object({
  success: z.literal(true),
  reviews: z.array(reviewSchema),
  average: z.number().nullable(),
  count: z.number().int(),
  page: z.number().int(),
  lastPage: z.number().int(),
});

export type Basket = Omit<z.infer<typeof basketResponse>, 'success'>;
export type BasketItem = z.infer<typeof basketItemSchema>;
export type BasketLine = z.infer<typeof basketLineSchema>;
export type BasketLineKey = z.infer<typeof basketLineKey>;

/** The form fields that name a basket line: `product`, and `variant` for a variant with options. */
export function basketLineFields(key: BasketLineKey): { product: string; variant?: string } {
  const [product = '', variant] = String(key).split(':');
  return variant === undefined ? { product } : { product, variant };
}
export type Wishlist = Omit<z.infer<typeof wishlistResponse>, 'success'>;
export type Review = z.infer<typeof reviewSchema>;
export type ReviewPage = Omit<z.infer<typeof reviewsResponse>, 'success'>;
