import { and, count, desc, eq, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { kopecksToRoubles } from '../../contract/money.ts';
import { recordAudit } from '../audit/audit.ts';
import { addStaffNote, notesOf } from '../audit/staff-notes.ts';
import type { Database, Executor } from '../db/client.ts';
import { pageOf } from '../db/paging.ts';
import { isPaidOrder } from '../db/paid-orders.ts';
import { orders, sessions, users } from '../db/schema.ts';
import { Forbidden, NotFound } from '../errors.ts';
import { CSV_BOM, csvLine, csvRoubles } from '../files/spreadsheet-csv.ts';

/**
 * Customers as staff see them: every registered account that is not staff, with what it ordered
 * and spent, staff notes, and blocking. Money spent counts paid orders (products and delivery, in
 * roubles, as the order recorded them).
 */

export const CUSTOMERS_PAGE_SIZE = 25;
export const CUSTOMER_CSV_BATCH = 500;

/**
 * Orders, money spent and the last order of the customer in the outer query's `users` row (an
 * alias: drizzle writes a column of a one-table query without its table, which a subquery would
 * read as its own table's).
 */
const orderFigures = {
  orders: sql<number>`(select count(*)::int from ${orders} o where o.user_id = "users"."id")`,
  spent: sql<number>`(select coalesce(sum(o.products_cost + o.delivery_cost), 0)::bigint
    from ${orders} o where o.user_id = "users"."id" and ${isPaidOrder(sql`o.status`)})`,
  lastOrderAt: sql<string | null>`(select max(o.created_at) from ${orders} o where o.user_id = "users"."id")`,
};

const isCustomer = eq(users.role, 'customer');

function customerSearch(search: string | undefined): SQL | undefined {
  const text = search?.trim();
  if (!text) return isCustomer;
  const like = `%${text.replace(/[%_\\]/g, (character) => `\\${character}`)}%`;
  return and(
    isCustomer,
    or(
      ilike(users.email, like),
      ilike(users.firstName, like),
      ilike(users.lastName, like),
      sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${like}`,
      ilike(users.phone, like),
    ),
  );
}

const customerColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  phone: users.phone,
  country: users.country,
  createdAt: users.createdAt,
  blockedAt: users.blockedAt,
  ...orderFigures,
};

type CustomerRow = {
  [Key in keyof typeof customerColumns]: (typeof customerColumns)[Key] extends SQL<infer Value>
    ? Value
    : (typeof users.$inferSelect)[Key & keyof typeof users.$inferSelect];
};

const toCustomer = (row: CustomerRow) => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName ?? '',
  lastName: row.lastName ?? '',
  phone: row.phone ?? '',
  country: row.country ?? '',
  registeredAt: row.createdAt.toISOString(),
  blocked: row.blockedAt !== null,
  orders: Number(row.orders),
  spent: kopecksToRoubles(Number(row.spent)),
  lastOrderAt: row.lastOrderAt === null ? null : new Date(row.lastOrderAt).toISOString(),
});

/** One page of customers, newest accounts first; a page past the end shows the last one. */
export async function searchCustomers(db: Executor, query: { page: number; search?: string }) {
  const where = customerSearch(query.search);
  const page = await pageOf(
    { page: query.page, size: CUSTOMERS_PAGE_SIZE },
    db
      .select({ count: count() })
      .from(users)
      .where(where)
      .then(([total]) => total?.count ?? 0),
    (offset, limit) =>
      db.select(customerColumns).from(users).where(where).orderBy(desc(users.id)).limit(limit).offset(offset),
  );
  return {
    list: page.rows.map(toCustomer),
    total: page.total,
    currentPage: page.currentPage,
    lastPage: page.lastPage,
  };
}

/** A customer with their details, orders (newest first) and staff notes (oldest first). */
export async function getCustomer(db: Executor, id: number) {
  const [row] = await db
    .select({
      ...customerColumns,
      city: users.city,
      zip: users.zip,
      address: users.address,
      locale: users.locale,
    })
    .from(users)
    .where(and(eq(users.id, id), isCustomer));
  if (!row) throw new NotFound('not-found', { customer: ['not-found'] });
  const [orderRows, notes] = await Promise.all([
    db
      .select({
        id: orders.id,
        date: orders.createdAt,
        status: orders.status,
        productsCost: orders.productsCost,
        deliveryCost: orders.deliveryCost,
        currency: orders.currency,
      })
      .from(orders)
      .where(eq(orders.userId, id))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(200),
    notesOf(db, { customerId: id }),
  ]);
  return {
    ...toCustomer(row),
    city: row.city ?? '',
    zip: row.zip ?? '',
    address: row.address ?? '',
    locale: row.locale,
    orderList: orderRows.map((order) => ({
      id: order.id,
      date: order.date.toISOString(),
      status: order.status,
      total: kopecksToRoubles(order.productsCost + order.deliveryCost),
    })),
    notes,
  };
}

async function existingCustomer(db: Executor, id: number) {
  const [customer] = await db
    .select({ id: users.id, role: users.role, blockedAt: users.blockedAt })
    .from(users)
    .where(eq(users.id, id));
  if (!customer) throw new NotFound('not-found', { customer: ['not-found'] });
  return customer;
}

/** A staff note on a customer: kept with its author and time, never edited. */
export async function addCustomerNote(db: Database, actorId: number, customerId: number, body: string) {
  await existingCustomer(db, customerId);
  return addStaffNote(db, actorId, { customerId }, body);
}

/**
 * Blocks a customer's account (it cannot sign in, and every session it has ends at once) or lets
 * it in again. Staff accounts are not customers and cannot be blocked here.
 */
export async function setCustomerBlocked(
  db: Database,
  actorId: number,
  customerId: number,
  blocked: boolean,
) {
  const customer = await existingCustomer(db, customerId);
  if (customer.role !== 'customer')
    throw new Forbidden('customer-is-staff', { customer: ['customer-is-staff'] });
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ blockedAt: blocked ? (customer.blockedAt ?? new Date()) : null, updatedAt: new Date() })
      .where(eq(users.id, customerId));
    if (blocked) await tx.delete(sessions).where(eq(sessions.userId, customerId));
    await recordAudit(tx, {
      actorId,
      action: 'update',
      entity: 'customer',
      entityId: customerId,
      before: { blocked: customer.blockedAt !== null },
      after: { blocked },
    });
  });
  return { blocked };
}

export const CUSTOMER_CSV_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'country',
  'registered_at',
  'orders',
  'spent',
  'last_order_at',
  'blocked',
] as const;

/**
 * The customers a search finds, as CSV (UTF-8 with a BOM, amounts in roubles with a dot, times in
 * UTC ISO 8601), newest first, read in batches by id so memory stays flat.
 */
export async function* exportCustomersCsv(db: Executor, query: { search?: string }): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(CUSTOMER_CSV_COLUMNS);
  let after: number | undefined;
  for (;;) {
    const rows = await db
      .select(customerColumns)
      .from(users)
      .where(and(customerSearch(query.search), after === undefined ? undefined : lt(users.id, after)))
      .orderBy(desc(users.id))
      .limit(CUSTOMER_CSV_BATCH);
    if (rows.length === 0) return;
    yield rows
      .map((row) =>
        csvLine([
          String(row.id),
          row.email,
          row.firstName ?? '',
          row.lastName ?? '',
          row.phone ?? '',
          row.country ?? '',
          row.createdAt.toISOString(),
          String(row.orders),
          csvRoubles(Number(row.spent)),
          row.lastOrderAt === null ? '' : new Date(row.lastOrderAt).toISOString(),
          row.blockedAt === null ? '0' : '1',
        ]),
      )
      .join('');
    const last = rows.at(-1);
    if (!last || rows.length < CUSTOMER_CSV_BATCH) return;
    after = last.id;
  }
}
