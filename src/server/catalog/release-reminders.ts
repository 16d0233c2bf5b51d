import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Locale, localizedPath } from '../../contract/locale.ts';
import type { Database, Executor } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';
import { products, projects, releaseReminders, users } from '../db/schema.ts';
import { Conflict, NotFound } from '../errors.ts';
import { type JobHandler, scheduleRecurring } from '../jobs/queue.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import { isListed, isReleased, isVisible } from './release.ts';

/**
 * "Remind me" on an announced product (ADR 0041): a signed-in shopper asks for one mail when it goes
 * on sale. The mails are claimed and queued by `sendReleaseReminders` in one transaction, so however
 * many instances run it, each reminder is mailed once.
 */

/** Reminders mailed per run at most; the next run takes the rest. */
const REMINDERS_PER_RUN = 500;

/**
 * Keeps the shopper's reminder of a visible product not released yet, in the shopper's language.
 * Asking again changes nothing but the language. A released product needs none (409
 * product-already-released).
 */
export async function askForReleaseReminder(
  db: Executor,
  userId: number,
  request: { productId: number; locale: Locale },
  now: Date,
): Promise<void> {
  const [product] = await db
    .select({ released: isReleased(now) })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(eq(products.id, request.productId), isVisible));
  if (!product) throw new NotFound('product-unavailable', { product: ['product-unavailable'] });
  if (product.released)
    throw new Conflict('product-already-released', { product: ['product-already-released'] });
  await db
    .insert(releaseReminders)
    .values({ userId, productId: request.productId, locale: request.locale })
    .onConflictDoUpdate({
      target: [releaseReminders.userId, releaseReminders.productId],
      set: { locale: request.locale },
    });
}

/** Drops the shopper's reminder of the product, if it is still to be mailed; none is fine too. */
export async function forgetReleaseReminder(db: Executor, userId: number, productId: number): Promise<void> {
  await db
    .delete(releaseReminders)
    .where(
      and(
        eq(releaseReminders.userId, userId),
        eq(releaseReminders.productId, productId),
        isNull(releaseReminders.sentAt),
      ),
    );
}

/** Whether the shopper waits for a reminder of the product. */
export async function hasReleaseReminder(db: Executor, userId: number, productId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: releaseReminders.userId })
    .from(releaseReminders)
    .where(
      and(
        eq(releaseReminders.userId, userId),
        eq(releaseReminders.productId, productId),
        isNull(releaseReminders.sentAt),
      ),
    );
  return row !== undefined;
}

/**
 * Mails the reminders of products on sale by `now` (released and listed), once each: in one
 * transaction it marks them sent (`update … where sent_at is null … returning`) and queues their
 * mails, so a run that loses the race to another instance finds nothing left to claim. Without the
 * shop's public address (no `shop.url`) nothing is claimed: the link needs it. Returns how many.
 */
export async function sendReleaseReminders(
  db: Database,
  now: Date,
  shop: MailShop | undefined,
): Promise<number> {
  const origin = shop?.url;
  if (origin === undefined) return 0;
  return db.transaction(async (transaction) => {
    const claimed = rowsOf<{ email: string; locale: string; link: string; nameRu: string; nameEn: string }>(
      await transaction.execute(sql`update ${releaseReminders}
        set sent_at = ${now.toISOString()}::timestamptz
        from ${users}, ${products}
        where ${users.id} = ${releaseReminders.userId} and ${products.id} = ${releaseReminders.productId}
          and (${releaseReminders.userId}, ${releaseReminders.productId}) in (
            select r.user_id, r.product_id from ${releaseReminders} r
            join ${products} on ${products.id} = r.product_id
            join ${projects} on ${projects.id} = ${products.projectId}
            where r.sent_at is null and ${isListed(now)}
            order by r.created_at limit ${REMINDERS_PER_RUN}
            for update of r skip locked)
          and ${releaseReminders.sentAt} is null
        returning ${users.email} as email, ${releaseReminders.locale} as locale, ${products.link} as link,
          ${products.nameRu} as "nameRu", ${products.nameEn} as "nameEn"`),
    );
    for (const reminder of claimed) {
      const locale: Locale = reminder.locale === 'en' ? 'en' : 'ru';
      await queueMail(
        transaction,
        {
          template: 'release-reminder',
          locale,
          to: reminder.email,
          data: {
            productName: locale === 'ru' ? reminder.nameRu : reminder.nameEn,
            link: `${origin}${localizedPath(`/product/${reminder.link}`, locale)}`,
          },
        },
        shop,
      );
    }
    return claimed.length;
  });
}

/** Queue kind of the recurring job that mails the reminders of released products. */
export const RELEASE_REMINDERS_JOB = 'release.reminders';

/** How often released products' reminders are looked for: a reminder goes out within this of the release. */
export const RELEASE_REMINDERS_EVERY_MS = 15_000;

export const releaseRemindersHandler =
  (db: Database, shop: MailShop): JobHandler =>
  async (_payload, { now }) => {
    await sendReleaseReminders(db, now, shop);
  };

export const scheduleReleaseReminders = (db: Executor, clock?: () => Date) =>
  scheduleRecurring(db, RELEASE_REMINDERS_JOB, RELEASE_REMINDERS_EVERY_MS, clock);
