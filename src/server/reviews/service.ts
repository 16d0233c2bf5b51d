import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Review, ReviewPage } from '../../contract/shopping.ts';
import type { Executor } from '../db/client.ts';
import { products, reviews, users } from '../db/schema.ts';
import { Conflict, NotFound } from '../errors.ts';

/** The reviews thread under each product: newest first, hidden reviews left out. */

export const REVIEWS_PAGE_SIZE = 10;

const visibleReviewsOf = (productId: number) =>
  and(eq(reviews.productId, productId), eq(reviews.hidden, false));

export async function reviewSummary(
  db: Executor,
  productId: number,
): Promise<{ average: number | null; count: number }> {
  const [row] = await db
    .select({ average: sql<string | null>`avg(${reviews.rating})`, count: count() })
    .from(reviews)
    .where(visibleReviewsOf(productId));
  const average =
    row?.average === null || row?.average === undefined ? null : Math.round(Number(row.average) * 10) / 10;
  return { average, count: row?.count ?? 0 };
}

export async function listReviews(db: Executor, productId: number, page: number): Promise<ReviewPage> {
  const summary = await reviewSummary(db, productId);
  const lastPage = Math.max(1, Math.ceil(summary.count / REVIEWS_PAGE_SIZE));
  const rows = await db
    .select({
      id: reviews.id,
      rating: reviews.rating,
      body: reviews.body,
      createdAt: reviews.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.userId))
    .where(visibleReviewsOf(productId))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEWS_PAGE_SIZE)
    .offset((page - 1) * REVIEWS_PAGE_SIZE);
  const list: Review[] = rows.map((row) => ({
    id: row.id,
    rating: row.rating,
    body: row.body,
    // First name and an initial only; an empty author is shown as an anonymous shopper.
    author: [row.firstName, row.lastName ? `${row.lastName.slice(0, 1)}.` : null].filter(Boolean).join(' '),
    date: row.createdAt.toISOString(),
  }));
  return { reviews: list, ...summary, page, lastPage };
}

export async function addReview(
  db: Executor,
  userId: number,
  input: { product: number; rating: number; body: string },
): Promise<void> {
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, input.product), eq(products.visible, true)));
  if (!product) throw new NotFound('product-unavailable', { product: ['product-unavailable'] });
  const [created] = await db
    .insert(reviews)
    .values({ productId: input.product, userId, rating: input.rating, body: input.body })
    .onConflictDoNothing()
    .returning({ id: reviews.id });
  if (!created) throw new Conflict('review-exists', { product: ['review-exists'] });
}

export async function setReviewHidden(db: Executor, reviewId: number, hidden: boolean): Promise<void> {
  const [row] = await db
    .update(reviews)
    .set({ hidden })
    .where(eq(reviews.id, reviewId))
    .returning({ id: reviews.id });
  if (!row) throw new NotFound('not-found', { review: ['not-found'] });
}
