import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { ADMIN_PAGE_SIZE, pageOf } from '../db/paging.ts';
import { products, reviews, users } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { setReviewHidden } from './service.ts';

/** Reviews as staff moderate them: every review, hidden ones too, and hiding or showing one (audited). */

const reviewColumns = {
  id: reviews.id,
  productId: reviews.productId,
  productLink: products.link,
  productNameRu: products.nameRu,
  productNameEn: products.nameEn,
  authorEmail: users.email,
  rating: reviews.rating,
  body: reviews.body,
  hidden: reviews.hidden,
  createdAt: reviews.createdAt,
};

const reviewView = (row: {
  id: number;
  productId: number;
  productLink: string;
  productNameRu: string;
  productNameEn: string;
  authorEmail: string;
  rating: number;
  body: string;
  hidden: boolean;
  createdAt: Date;
}) => ({
  id: row.id,
  product: {
    id: row.productId,
    link: row.productLink,
    name_ru: row.productNameRu,
    name_en: row.productNameEn,
  },
  email: row.authorEmail,
  rating: row.rating,
  body: row.body,
  hidden: row.hidden,
  date: row.createdAt.toISOString(),
});

const reviewQuery = (db: Executor) =>
  db
    .select(reviewColumns)
    .from(reviews)
    .innerJoin(products, eq(products.id, reviews.productId))
    .innerJoin(users, eq(users.id, reviews.userId));

/** All reviews newest first, hidden ones too, with the product and the author's e-mail. */
export async function listReviewsForAdmin(
  db: Executor,
  options: { page: number; hidden: '' | '0' | '1'; search?: string | undefined },
) {
  const where = and(
    options.hidden === '' ? undefined : eq(reviews.hidden, options.hidden === '1'),
    options.search
      ? or(
          ilike(products.nameRu, `%${options.search}%`),
          ilike(products.nameEn, `%${options.search}%`),
          ilike(products.link, `%${options.search}%`),
          ilike(users.email, `%${options.search}%`),
        )
      : undefined,
  );
  const page = await pageOf(
    { page: options.page, size: ADMIN_PAGE_SIZE },
    db
      .select({ count: count() })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .innerJoin(users, eq(users.id, reviews.userId))
      .where(where)
      .then(([total]) => total?.count ?? 0),
    (offset, limit) =>
      reviewQuery(db)
        .where(where)
        .orderBy(desc(reviews.createdAt), desc(reviews.id))
        .limit(limit)
        .offset(offset),
  );
  return {
    list: page.rows.map(reviewView),
    total: page.total,
    currentPage: page.currentPage,
    lastPage: page.lastPage,
  };
}

/**
 * Hides a review from the product's thread (or shows it again). The product's rating changes: the
 * answer names the product (`review.product.id`), whose cached answers are dropped.
 */
export async function moderateReview(db: Database, actorId: number, id: number, hidden: boolean) {
  return db.transaction(async (transaction) => {
    const [before] = await reviewQuery(transaction).where(eq(reviews.id, id));
    if (!before) throw new NotFound('not-found', { id: ['not-found'] });
    await setReviewHidden(transaction, id, hidden);
    if (before.hidden !== hidden) {
      await recordAudit(transaction, {
        actorId,
        action: 'update',
        entity: 'review',
        entityId: id,
        before: { hidden: before.hidden },
        after: { hidden },
      });
    }
    return reviewView({ ...before, hidden });
  });
}
