import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { PAID_STATUSES } from '../../contract/order-status.ts';
import { orders } from './schema.ts';

/** SQL: the order whose status is `status` (its column, or an alias's) has been paid. */
export const isPaidOrder = (status: AnyColumn | SQL = orders.status): SQL =>
  sql`${status} in (${sql.join(
    PAID_STATUSES.map((paid) => sql`${paid}`),
    sql`, `,
  )})`;
