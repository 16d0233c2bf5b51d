import { z } from './zod.ts';

/**
 * Numbers as they arrive in requests: a JSON number (12) or the text of a form field ('12').
 */

/**
 * Ids and other whole numbers the database keeps in PostgreSQL `integer` columns end here. A larger
 * number is no id of ours; sent to the database it would fail the statement (a 500) instead of
 * getting the 4xx that bad input deserves.
 */
export const DATABASE_INT_MAX = 2_147_483_647;

/**
 * `schema` (a `z.coerce.number()` chain) applied only to a JSON number or form text: coercion alone
 * would also read [[1]] as 1, true as 1 and null as 0. Anything else fails as NaN does.
 */
export const wireNumber = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === 'number' || typeof value === 'string' ? value : Number.NaN),
    schema,
  );
