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

export const productBody = z.object({ product: productId });

/** Count edits: an integer, falling back to 1, never below 1 (spec section 5). */
export const countBody = z.object({
  product: productId,
  count: z.preprocess((value) => {
    const number = Math.trunc(Number(value));
    return Number.isFinite(number) && number >= 1 ? number : 1;
  }, z.number().int().min(1).max(9999)),
});

export const basketQuery = z.object({ locale: z.enum(LOCALES).optional() });

export const basketItemSchema = z.object({
  id: z.number().int(),
  link: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  count: z.number().int(),
  price: z.number(),
  sale: z.number().nullable(),
  inStock: z.number().int(),
});

export const basketResponse = z.object({
  success: z.literal(true),
  productList: z.array(z.number().int()).describe('Product ids in the order they were added'),
  products: z.record(z.string(), basketItemSchema),
  unavailable: z.array(z.number().int()).describe('Out of stock, envisioned, hidden, or counted over stock'),
  total: z.number().describe('Σ (sale or price) × count, roubles'),
  count: z.number().int().describe('Items in the basket (sum of counts)'),
});

export const basketCountResponse = z.object({
  success: z.literal(true),
  force: z.boolean().describe('The server changed the count the client sent (clamped to stock)'),
  product: z.number().int(),
  count: z.number().int(),
});

export const basketRemoveResponse = z.object({ success: z.literal(true), product: z.number().int() });

export const wishlistResponse = z.object({
  success: z.literal(true),
  productList: z.array(z.number().int()),
  products: z.record(z.string(), basketItemSchema.omit({ count: true }).extend({ envisioned: z.boolean() })),
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
export type Wishlist = Omit<z.infer<typeof wishlistResponse>, 'success'>;
export type Review = z.infer<typeof reviewSchema>;
export type ReviewPage = Omit<z.infer<typeof reviewsResponse>, 'success'>;
