import { and, asc, count, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { EditTarget, PartnerInput } from '../../contract/admin.ts';
import { recordAudit } from '../audit/audit.ts';
import { ADMIN_PAGE_SIZE } from '../catalog/editing.ts';
import type { Database, Executor } from '../db/client.ts';
import { pageOf } from '../db/paging.ts';
import { feedback, partners, products, reviews, users } from '../db/schema.ts';
import { recordChanged } from '../db/versions.ts';
import { Invalid, NotFound } from '../errors.ts';
import { adoptImage, imageExists } from '../files/images.ts';
import type { ObjectStorage } from '../files/storage.ts';
import { setReviewHidden } from '../reviews/service.ts';

/**
 * What shoppers and partners put on the site, as administrators moderate it: the partners page,
 * the feedback inbox and product reviews. Every change is audited.
 */

const notFound = (field: string) => new NotFound('not-found', { [field]: ['not-found'] });

// ── Partners ────────────────────────────────────────────────────────────────────────────────────

const partnerView = (row: typeof partners.$inferSelect) => ({
  id: row.id,
  name_ru: row.nameRu,
  name_en: row.nameEn,
  desc_ru: row.descriptionRu,
  desc_en: row.descriptionEn,
  image: row.image,
  link: row.link,
  email: row.email,
  phone_number: row.phoneNumber,
  phone_number_mobile: row.phoneNumberMobile,
  telegram: row.telegram,
  messenger: row.messenger,
  socials: row.socials,
  visible: row.visible,
  position: row.position,
  version: row.version,
});

const webLink = (value: string) => /^https?:$/.test(new URL(value).protocol);

/**
 * Rules the wire schema cannot see: links the partners page turns into `href`s must be web links
 * (a URL such as `javascript:…` parses as one).
 */
function checkPartner(input: PartnerInput) {
  const errors: Record<string, string[]> = {};
  if (input.link !== null && !webLink(input.link)) errors.link = ['url-invalid'];
  input.socials.forEach((social, index) => {
    if (!webLink(social.link)) errors[`socials.${index}.link`] = ['url-invalid'];
  });
  if (Object.keys(errors).length > 0) throw new Invalid('request-invalid', errors);
}

/** Every partner; `imageMissing` marks a picture name that is not stored (shown as missing, not as a broken image). */
export async function listPartnersForAdmin(db: Executor, storage: ObjectStorage) {
  const rows = await db.select().from(partners).orderBy(asc(partners.position), asc(partners.id));
  return Promise.all(
    rows.map(async (row) => ({
      ...partnerView(row),
      imageMissing: row.image !== null && !(await imageExists(storage, 'partners', row.image)),
    })),
  );
}

/**
 * Adds a partner, or saves over `target` if nobody changed it since the editor loaded it. The
 * picture must be stored: a partner picture, or a file manager upload, which becomes one.
 */
export async function savePartner(
  db: Database,
  storage: ObjectStorage,
  actorId: number,
  input: PartnerInput,
  target?: EditTarget,
) {
  checkPartner(input);
  if (input.image !== null) await adoptImage(storage, 'partners', input.image);
  const values = {
    nameRu: input.name_ru,
    nameEn: input.name_en,
    descriptionRu: input.desc_ru,
    descriptionEn: input.desc_en,
    image: input.image,
    link: input.link,
    email: input.email,
    phoneNumber: input.phone_number,
    phoneNumberMobile: input.phone_number_mobile,
    telegram: input.telegram,
    messenger: input.messenger,
    socials: input.socials,
    visible: input.visible,
    position: input.position,
    updatedAt: new Date(),
  };
  return db.transaction(async (transaction) => {
    const [before] =
      target === undefined
        ? []
        : await transaction.select().from(partners).where(eq(partners.id, target.id)).for('update');
    if (target !== undefined && !before) throw notFound('id');
    const [row] =
      target === undefined
        ? await transaction.insert(partners).values(values).returning()
        : await transaction
            .update(partners)
            .set({ ...values, version: sql`${partners.version} + 1` })
            .where(and(eq(partners.id, target.id), eq(partners.version, target.version)))
            .returning();
    if (!row) throw recordChanged();
    await recordAudit(transaction, {
      actorId,
      action: before ? 'update' : 'create',
      entity: 'partner',
      entityId: row.id,
      before: before ? partnerView(before) : undefined,
      after: partnerView(row),
    });
    return partnerView(row);
  });
}

export async function deletePartner(db: Database, actorId: number, id: number) {
  await db.transaction(async (transaction) => {
    const [row] = await transaction.delete(partners).where(eq(partners.id, id)).returning();
    if (!row) throw notFound('id');
    await recordAudit(transaction, {
      actorId,
      action: 'delete',
      entity: 'partner',
      entityId: id,
      before: partnerView(row),
    });
  });
}

// ── Feedback inbox ──────────────────────────────────────────────────────────────────────────────

const feedbackView = (row: typeof feedback.$inferSelect) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  message: row.message,
  read: row.readAt !== null,
  readAt: row.readAt?.toISOString() ?? null,
  date: row.createdAt.toISOString(),
});

/** How many feedback messages nobody has read yet. */
export async function unreadFeedback(db: Executor): Promise<number> {
  const [row] = await db.select({ count: count() }).from(feedback).where(isNull(feedback.readAt));
  return row?.count ?? 0;
}

/** Unread messages first, each group newest first; `unread` keeps only the unread ones. */
export async function listFeedback(
  db: Executor,
  options: { page: number; unread: boolean; search?: string | undefined },
) {
  const where = and(
    options.unread ? isNull(feedback.readAt) : undefined,
    options.search
      ? or(
          ilike(feedback.name, `%${options.search}%`),
          ilike(feedback.email, `%${options.search}%`),
          ilike(feedback.message, `%${options.search}%`),
        )
      : undefined,
  );
  const [unread, page] = await Promise.all([
    unreadFeedback(db),
    pageOf(
      { page: options.page, size: ADMIN_PAGE_SIZE },
      db
        .select({ count: count() })
        .from(feedback)
        .where(where)
        .then(([total]) => total?.count ?? 0),
      (offset, limit) =>
        db
          .select()
          .from(feedback)
          .where(where)
          .orderBy(sql`${feedback.readAt} is null desc`, desc(feedback.createdAt), desc(feedback.id))
          .limit(limit)
          .offset(offset),
    ),
  ]);
  return {
    list: page.rows.map(feedbackView),
    unread,
    total: page.total,
    currentPage: page.currentPage,
    lastPage: page.lastPage,
  };
}

/** Marks a message read (keeping when it was first read) or unread again. */
export async function setFeedbackRead(
  db: Database,
  actorId: number,
  id: number,
  read: boolean,
  now: Date = new Date(),
) {
  return db.transaction(async (transaction) => {
    const [before] = await transaction.select().from(feedback).where(eq(feedback.id, id)).for('update');
    if (!before) throw notFound('id');
    const [row] = await transaction
      .update(feedback)
      .set({ readAt: read ? (before.readAt ?? now) : null })
      .where(eq(feedback.id, id))
      .returning();
    if (!row) throw notFound('id');
    if (row.readAt?.getTime() !== before.readAt?.getTime()) {
      await recordAudit(transaction, {
        actorId,
        action: 'update',
        entity: 'feedback',
        entityId: id,
        before: { read: before.readAt !== null },
        after: { read: row.readAt !== null },
      });
    }
    return feedbackView(row);
  });
}

// ── Reviews ─────────────────────────────────────────────────────────────────────────────────────

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
 * Hides a review from the product's thread (or shows it again). The product's rating changes, so
 * the caller empties the catalogue cache.
 */
export async function moderateReview(db: Database, actorId: number, id: number, hidden: boolean) {
  return db.transaction(async (transaction) => {
    const [before] = await reviewQuery(transaction).where(eq(reviews.id, id));
    if (!before) throw notFound('id');
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
