import { and, asc, count, desc, eq, gte, isNotNull, lt } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { pageOf } from '../db/paging.ts';
import { auditLog, users } from '../db/schema.ts';

/** What the audit log records changes of; the back office names each (routes/admin/audit.tsx). */
export type AuditEntity =
  | 'project'
  | 'category'
  | 'product'
  | 'product-variants'
  | 'order'
  | 'refund'
  | 'file'
  | 'folder'
  | 'partner'
  | 'feedback'
  | 'review'
  | 'customer'
  | 'customer-note'
  | 'order-note'
  | 'staff'
  | 'staff-invitation'
  | 'synonym'
  | 'drop'
  | 'exchange-rate'
  | 'promo-code'
  | 'products'
  | 'static-page';

/** Every admin change: who, when, what, and the record before and after. */
export async function recordAudit(
  db: Executor,
  entry: {
    actorId: number;
    action: 'create' | 'update' | 'delete';
    entity: AuditEntity;
    entityId: string | number;
    before?: unknown;
    after?: unknown;
  },
) {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    entity: entry.entity,
    entityId: String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilter {
  page: number;
  entity?: string | undefined;
  entityId?: string | undefined;
  /** The staff member who made the changes. */
  actorId?: number | undefined;
  /** Changes made at or after this moment… */
  from?: Date | undefined;
  /** …and before this one. */
  to?: Date | undefined;
}

export async function listAudit(db: Executor, options: AuditFilter) {
  const where = and(
    options.entity ? eq(auditLog.entity, options.entity) : undefined,
    options.entityId ? eq(auditLog.entityId, options.entityId) : undefined,
    options.actorId ? eq(auditLog.actorId, options.actorId) : undefined,
    options.from ? gte(auditLog.createdAt, options.from) : undefined,
    options.to ? lt(auditLog.createdAt, options.to) : undefined,
  );
  const page = await pageOf(
    { page: options.page, size: AUDIT_PAGE_SIZE },
    db
      .select({ count: count() })
      .from(auditLog)
      .where(where)
      .then(([total]) => total?.count ?? 0),
    (offset, limit) =>
      db
        .select({
          id: auditLog.id,
          actor: users.email,
          actorFirstName: users.firstName,
          actorLastName: users.lastName,
          action: auditLog.action,
          entity: auditLog.entity,
          entityId: auditLog.entityId,
          before: auditLog.before,
          after: auditLog.after,
          date: auditLog.createdAt,
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorId))
        .where(where)
        .orderBy(desc(auditLog.id))
        .limit(limit)
        .offset(offset),
  );
  // Everyone who has made a change, for the filter's choice of person.
  const actors = await db
    .selectDistinct({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(auditLog)
    .innerJoin(users, eq(users.id, auditLog.actorId))
    .where(isNotNull(auditLog.actorId))
    .orderBy(asc(users.email));
  return {
    actors: actors.map(({ id, email, firstName, lastName }) => ({
      id,
      email,
      name: [firstName, lastName].filter(Boolean).join(' ') || null,
    })),
    entries: page.rows.map(({ actorFirstName, actorLastName, ...entry }) => ({
      ...entry,
      /** The staff member's name, when their account has one; `actor` is their e-mail. */
      actorName: [actorFirstName, actorLastName].filter(Boolean).join(' ') || null,
    })),
    total: page.total,
    currentPage: page.currentPage,
    lastPage: page.lastPage,
  };
}
