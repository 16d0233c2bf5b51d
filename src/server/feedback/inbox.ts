import { and, count, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { ADMIN_PAGE_SIZE, pageOf } from '../db/paging.ts';
import { feedback } from '../db/schema.ts';
import { NotFound } from '../errors.ts';

/** The feedback inbox as staff read it; marking a message read or unread is audited. */

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
    if (!before) throw new NotFound('not-found', { id: ['not-found'] });
    const [row] = await transaction
      .update(feedback)
      .set({ readAt: read ? (before.readAt ?? now) : null })
      .where(eq(feedback.id, id))
      .returning();
    if (!row) throw new NotFound('not-found', { id: ['not-found'] });
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
